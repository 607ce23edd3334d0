"""Probe the compiled staging SQL of a kept 1M bench run: cumulative CTE steps to noop.

    PYTHONPATH=. .venv/bin/python bench/results/2026-11-29-debezium-staging/probe.py \
        <bench work>/runs/peer-debezium stg_debezium__events new_messages,parsed,...,FINAL,PARQUET 2

Reads the compiled SQL of a kept 1M benchmark run (`bench.run --keep-streams`), runs the whole
select once to warm the JVM, then per repetition each CTE step (`select * from <step>`) to
Spark's noop sink; FINAL = the model's select, PARQUET = the same written as Parquet. Embedded
profile settings (local[2], 8 GB, parallel GC, 8 shuffle partitions, AQE).
"""
import re, sys, time, os, json
from pyspark.sql import SparkSession

run_dir = sys.argv[1]            # .../runs/peer-debezium
model = sys.argv[2]              # stg_debezium__events
steps = sys.argv[3].split(",")   # CTE names, or FINAL
repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 2
sql_file = sys.argv[5] if len(sys.argv) > 5 else None
local = f"{run_dir}/cdc_local"
spark = (SparkSession.builder.master("local[2]")
    .config("spark.driver.memory", "8g")
    .config("spark.sql.shuffle.partitions", "8")
    .config("spark.sql.adaptive.enabled", "true")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.ui.enabled", "false")
    .config("spark.ui.showConsoleProgress", "false")
    .config("spark.sql.mapKeyDedupPolicy", "LAST_WIN")
    .config("spark.sql.warehouse.dir", f"{local}/warehouse")
    .config("spark.local.dir", f"{local}/tmp")
    .config("spark.hadoop.javax.jdo.option.ConnectionURL", f"jdbc:derby:;databaseName={local}/metastore_db;create=true")
    .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={local} -XX:+UseParallelGC")
    .config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
    .enableHiveSupport().getOrCreate())
from python_udfs.spark_udfs import register_udfs
register_udfs(spark)
if sql_file is None:
    sql_file = f"{run_dir}/target/compiled/cdc_changelog/models/staging/{model.split('__')[0][4:]}/{model}.sql"
sql = open(sql_file).read()
# split at the final top-level select (after the last CTE)
m = list(re.finditer(r"^\)\s*\n\s*\nselect\b", sql, re.M))[-1]
head = sql[: m.start() + 1]
final = sql[m.start() + 1:]
def q(step):
    return sql if step == "FINAL" else head + f"\nselect * from {step}"
spark.sql(q("FINAL")).write.format("noop").mode("overwrite").save()  # warm-up
for r in range(repeats):
    for step in steps:
        if step.startswith("PARQUET"):
            t = time.time(); spark.sql(q("FINAL")).write.mode("overwrite").parquet(f"{local}/probe_out")
        else:
            t = time.time(); spark.sql(q(step)).write.format("noop").mode("overwrite").save()
        print(json.dumps({"step": step, "rep": r, "s": round(time.time() - t, 2)}), flush=True)
