"""Paired A/B of one runtime SQL conf over replayed statements in one warm session.
    ab_conf.py LOCAL REPS KEY VALUE_A VALUE_B files..."""
import re, sys, time, os, statistics
from pathlib import Path
from pyspark.sql import SparkSession
sys.path.insert(0, '/work/main')
from python_udfs.spark_udfs import register_udfs
local, reps, key, va, vb, files = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]
conf = {
    "spark.driver.memory": "4g", "spark.sql.shuffle.partitions": "8", "spark.sql.adaptive.enabled": "true",
    "spark.sql.codegen.wholeStage": "false", "spark.sql.codegen.factoryMode": "NO_CODEGEN",
    "spark.sql.session.timeZone": "UTC", "spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false",
    "spark.sql.mapKeyDedupPolicy": "LAST_WIN", "spark.sql.warehouse.dir": f"{local}/warehouse",
    "spark.local.dir": f"{local}/tmp",
    "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={local}/metastore_db;create=true",
    "spark.driver.extraJavaOptions": f"-Dderby.system.home={local} -XX:+UseParallelGC",
    "spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS",
}
b = SparkSession.builder.enableHiveSupport().master("local[2]")
for k, v in conf.items(): b = b.config(k, v)
spark = b.getOrCreate(); spark.sparkContext.setLogLevel("ERROR"); register_udfs(spark)
head = re.compile(r"^\s*insert\s+(into|overwrite)\s+table\s+\S+(\s+partition\s*\([^)]*\))?", re.I)
queries = {f: head.sub("", open(f).read()) for f in files}
times = {va: [], vb: []}
for rep in range(reps):
    order = (va, vb) if rep % 2 == 0 else (vb, va)
    for value in order:
        spark.conf.set(key, value)
        t0 = time.perf_counter()
        for f in files:
            spark.sql(queries[f]).write.format("noop").mode("overwrite").save()
        dt = time.perf_counter() - t0
        if rep >= 2: times[value].append(dt)
        print(f"rep {rep} {key}={value}: {dt:6.2f} s", flush=True)
for v in (va, vb):
    print(f"{key}={v}: median {statistics.median(times[v]):.2f} min {min(times[v]):.2f} max {max(times[v]):.2f} n {len(times[v])}")
ra = [a / b for a, b in zip(times[vb], times[va])]
print(f"ratio {vb}/{va} per rep: " + ' '.join(f"{r:.3f}" for r in ra), 'median', round(statistics.median(ra), 3))
