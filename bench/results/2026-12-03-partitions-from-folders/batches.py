"""Land batches into a watch's warehouse and run `dbt build` in-process after each, as
`cdc-pipeline watch` does (the first build cold, the rest warm); prints each batch's times.

    batches.py ROOT FIRST N [--rules OUT] [--sample OUT] [--alternate NAME] [--label NAME]

ROOT: a warehouse made by ../2026-12-02-accounting-window/watch_profile.py (its keys file
at /tmp/prof/keys.json). Batches FIRST..FIRST+N-1 of ROOT/stream3 (generated once: five
formats of 200 messages a batch, seed 777). --rules: Spark's rule metering of each build
to OUT.<batch>. --sample: every thread's Python stack every 5 ms during the warm builds
(sampler.py) to OUT (workers) and OUT.main. --alternate: the environment variable NAME set
in every second build (an A/B switch read by the code under test; the checkpoint runs used
a temporary one in the adapter, `CDC_AB_NO_CHECKPOINT`, removed before the commit).
--label: print the value of this environment variable first (the partition runs used
`CDC_AB_MANAGE`, read by a temporary line of the profile)."""
import argparse, json, os, sys, time
from pathlib import Path

P = Path('/work/main'); sys.path.insert(0, str(P)); sys.path.insert(0, str(Path(__file__).parent))
parser = argparse.ArgumentParser()
parser.add_argument('root', type=Path); parser.add_argument('first', type=int); parser.add_argument('n', type=int)
parser.add_argument('--rules'); parser.add_argument('--sample'); parser.add_argument('--alternate'); parser.add_argument('--label')
a = parser.parse_args()
os.environ.update(CDC_LOCAL_DIR=str(a.root / 'local'), CDC_SCHEMA='bench', DBT_PROFILES_DIR=str(P / 'profiles'),
                  CDC_WHOLE_STAGE_CODEGEN='false', CDC_CODEGEN_FACTORY_MODE='NO_CODEGEN')
from bench.generate import generate_format  # noqa: E402
from dbt.cli.main import dbtRunner  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402
from python_udfs.pipeline.landing import land_formats  # noqa: E402

formats = ['dataworks', 'datahub_tuple', 'canal', 'debezium', 'shareplex']
stream = a.root / 'stream3'
if not stream.exists():
    for f in formats:
        generate_format(f, [200] * 60, 777, stream, file_lines=0)
dbt_vars = {"cdc_formats": formats, "cdc_primary_keys": json.load(open('/tmp/prof/keys.json')), "cdc_canal_legacy_layout": False}
common = ['--project-dir', str(P), '--target-path', str(a.root / 'target'), '--log-path', str(a.root / 'logs'), '--vars', json.dumps(dbt_vars)]
runner = dbtRunner()
runner.invoke(['run-operation', 'create_landing_tables', *common])
spark = SparkSession.builder.getOrCreate()
rules = spark._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor
sampler = None
if a.sample:
    from sampler import Sampler
    sampler = Sampler()
for i in range(a.first, a.first + a.n):
    if a.alternate:
        if (i - a.first) % 2:
            os.environ[a.alternate] = '1'
        else:
            os.environ.pop(a.alternate, None)
    t0 = time.perf_counter()
    land_formats(spark, {f: [stream / f'batch-{i}' / f] for f in formats}, project_dir=P, landing_schema='cdc_landing',
                 scratch_dir=a.root / 'scratch', progress=False)
    t1 = time.perf_counter()
    rules.resetMetrics()
    if sampler:
        sampler.on = i > a.first
    result = runner.invoke(['build', *common])
    if sampler:
        sampler.on = False
    t2 = time.perf_counter()
    if a.rules:
        Path(f'{a.rules}.{i}').write_text(rules.dumpTimeSpent())
    label = f'{os.environ.get(a.label)} ' if a.label else ''
    switched = f'{a.alternate}={os.environ.get(a.alternate)} ' if a.alternate else ''
    print(f'{label}{switched}batch {i}: land {t1-t0:.1f} s build {t2-t1:.1f} s ok={result.success}', flush=True)
if sampler:
    sampler.report(a.sample)
    sampler.report(a.sample + '.main', main=True)
