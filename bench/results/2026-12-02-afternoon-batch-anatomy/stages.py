"""Replay statements (noop write) with Spark's event log on; print jobs, stages, tasks and times."""
import json, re, sys, time, glob, os
from pathlib import Path
from pyspark.sql import SparkSession
sys.path.insert(0, '/work/main')
from python_udfs.spark_udfs import register_udfs
local, reps, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
evdir = '/tmp/prof/ev'
import shutil; shutil.rmtree(evdir, ignore_errors=True); os.makedirs(evdir)
conf = {
    "spark.driver.memory": "4g", "spark.sql.shuffle.partitions": "8", "spark.sql.adaptive.enabled": "true",
    "spark.sql.codegen.wholeStage": "false", "spark.sql.codegen.factoryMode": "NO_CODEGEN",
    "spark.sql.session.timeZone": "UTC", "spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false",
    "spark.sql.mapKeyDedupPolicy": "LAST_WIN", "spark.sql.warehouse.dir": f"{local}/warehouse",
    "spark.local.dir": f"{local}/tmp", "spark.eventLog.enabled": "true", "spark.eventLog.dir": evdir, "spark.eventLog.compress": "false", "spark.eventLog.rolling.enabled": "false",
    "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={local}/metastore_db;create=true",
    "spark.driver.extraJavaOptions": f"-Dderby.system.home={local} -XX:+UseParallelGC",
    "spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS",
}
for k, v in [a.split('=', 1) for a in os.environ.get('EXTRA_CONF', '').split(',') if a]:
    conf[k] = v
b = SparkSession.builder.enableHiveSupport().master("local[2]")
for k, v in conf.items(): b = b.config(k, v)
spark = b.getOrCreate(); spark.sparkContext.setLogLevel("ERROR"); register_udfs(spark)
head = re.compile(r"^\s*insert\s+(into|overwrite)\s+table\s+\S+(\s+partition\s*\([^)]*\))?", re.I)
queries = {f: head.sub("", open(f).read()) for f in files}
marks = []
for rep in range(reps):
    for f in files:
        spark.sparkContext.setJobDescription(f'{rep}:{Path(f).stem}')
        if os.environ.get('RULES') and rep == reps - 1: spark._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor.resetMetrics()
        t0 = time.perf_counter(); df = spark.sql(queries[f]); t1 = time.perf_counter()
        df.write.format("noop").mode("overwrite").save(); t2 = time.perf_counter()
        print(f"rep {rep} {Path(f).stem:30s} analyze {t1-t0:5.2f} run {t2-t1:5.2f}", flush=True)
if os.environ.get('RULES'): print(spark._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor.dumpTimeSpent()[:6000])
spark.stop()
ev = [json.loads(l) for f in glob.glob(evdir + '/**', recursive=True) if os.path.isfile(f) for l in open(f, errors='replace') if l.startswith('{')]
jobs = {}; stages = {}
for e in ev:
    t = e['Event']
    if t == 'SparkListenerJobStart':
        desc = e.get('Properties', {}).get('spark.job.description', '?')
        jobs[e['Job ID']] = [desc, e['Submission Time'], None, [s['Stage ID'] for s in e['Stage Infos']]]
    elif t == 'SparkListenerJobEnd':
        jobs[e['Job ID']][2] = e['Completion Time']
    elif t == 'SparkListenerStageCompleted':
        si = e['Stage Info']
        stages[si['Stage ID']] = (si['Number of Tasks'], si.get('Submission Time'), si.get('Completion Time'), si['Stage Name'][:40])
last_rep = str(reps - 1) + ':'
for jid, (desc, s, c, sids) in sorted(jobs.items()):
    if not desc.startswith(last_rep): continue
    run = [stages[i] for i in sids if i in stages]
    print(f"job {jid:4d} {desc[:36]:36s} {(c - s)/1000:6.2f}s stages {len(run)} tasks {sum(r[0] for r in run)}  " +
          ' '.join(f"{r[0]}t/{(r[2]-r[1])/1000:.2f}" for r in run))
