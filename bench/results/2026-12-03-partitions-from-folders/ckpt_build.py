"""Land batches into /tmp/w0 and run dbt build in-process; cProfile the warm builds."""
import cProfile, json, os, sys, time, pstats
from pathlib import Path
sys.path.insert(0, '/work/main')
root = Path('/tmp/w0'); P = Path('/work/main')
os.environ.update(CDC_LOCAL_DIR=str(root / 'local'), CDC_SCHEMA='bench', DBT_PROFILES_DIR=str(P / 'profiles'),
                  CDC_WHOLE_STAGE_CODEGEN='false', CDC_CODEGEN_FACTORY_MODE='NO_CODEGEN')
from bench.generate import generate_format
formats = ['dataworks', 'datahub_tuple', 'canal', 'debezium', 'shareplex']
stream = root / 'stream3'
first = int(sys.argv[1]); n = int(sys.argv[2]); out = sys.argv[3]
if not stream.exists():
    for f in formats: generate_format(f, [200] * 60, 777, stream, file_lines=0)
keys = json.load(open('/tmp/prof/keys.json'))
dbt_vars = {"cdc_formats": formats, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False}
from dbt.cli.main import dbtRunner
from pyspark.sql import SparkSession
from python_udfs.pipeline.landing import land_formats
args = ['build', '--project-dir', str(P), '--target-path', str(root / 'target'), '--log-path', str(root / 'logs'), '--vars', json.dumps(dbt_vars)]
runner = dbtRunner()
runner.invoke(['run-operation', 'create_landing_tables', '--project-dir', str(P), '--target-path', str(root / 'target'), '--log-path', str(root / 'logs'), '--vars', json.dumps(dbt_vars)])
spark = SparkSession.builder.getOrCreate()
prof = cProfile.Profile()
for i in range(first, first + n):
    plan = {f: [stream / f'batch-{i}' / f] for f in formats}
    if (i - first) % 2: os.environ['CDC_AB_NO_CHECKPOINT'] = '1'
    else: os.environ.pop('CDC_AB_NO_CHECKPOINT', None)
    t0 = time.perf_counter()
    land_formats(spark, plan, project_dir=P, landing_schema='cdc_landing', scratch_dir=root / 'scratch', progress=False)
    t1 = time.perf_counter()
    RE = spark._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor
    RE.resetMetrics()
    r = runner.invoke(args)
    open(out + f'.{i}', 'w').write(RE.dumpTimeSpent())
    t2 = time.perf_counter()
    print(f'table={bool(os.environ.get("CDC_AB_NO_CHECKPOINT"))} batch {i}: land {t1-t0:.1f} s build {t2-t1:.1f} s ok={r.success}', flush=True)

