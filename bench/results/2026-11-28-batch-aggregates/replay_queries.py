"""Time SQL queries (noop writes) and compare their rows, in one warm Spark session.

Used for this folder's figures: the full build's queries of int_stream_batches and
int_update_halves_paired, taken from the bench's dbt.log (1M mixed messages), before and
after the change, run in turn against the bench's kept warehouse.

    python replay_queries.py LOCAL_DIR REPS before.sql after.sql [before2.sql after2.sql ...]

LOCAL_DIR is the bench run's `cdc_local` (its metastore and warehouse). Codegen settings as
in a full build (whole-stage on, FALLBACK). Prints each query's wall time per repetition,
then for each pair the row counts and the rows in one but not the other (rows compared as
SHA-256 of their JSON, so map columns compare too).
"""
import sys
import time

from pyspark.sql import SparkSession

local, reps, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
conf = {
    "spark.driver.memory": "4g", "spark.sql.shuffle.partitions": "8", "spark.sql.adaptive.enabled": "true",
    "spark.sql.codegen.wholeStage": "true", "spark.sql.codegen.factoryMode": "FALLBACK",
    "spark.sql.session.timeZone": "UTC", "spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false",
    "spark.sql.mapKeyDedupPolicy": "LAST_WIN", "spark.sql.warehouse.dir": f"{local}/warehouse",
    "spark.local.dir": f"{local}/tmp",
    "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={local}/metastore_db;create=true",
    "spark.driver.extraJavaOptions": f"-Dderby.system.home={local}",
}
builder = SparkSession.builder.enableHiveSupport().master("local[2]")
for key, value in conf.items():
    builder = builder.config(key, value)
spark = builder.getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
queries = {f: open(f).read() for f in files}
for rep in range(reps):
    for f in files:
        start = time.perf_counter()
        spark.sql(queries[f]).write.format("noop").mode("overwrite").save()
        print(f"rep {rep} {f:40s} {time.perf_counter() - start:6.2f} s", flush=True)
for before, after in zip(files[0::2], files[1::2]):
    a, b = spark.sql(queries[before]), spark.sql(queries[after])
    a.createOrReplaceTempView("a")
    b.createOrReplaceTempView("b")
    rows = "select sha2(to_json(struct(*)), 256) as h from {}"
    only_a = spark.sql(f"select count(*) from ({rows.format('a')} except all {rows.format('b')})").first()[0]
    only_b = spark.sql(f"select count(*) from ({rows.format('b')} except all {rows.format('a')})").first()[0]
    print(f"{before} vs {after}: rows {a.count()} / {b.count()}, same columns {a.columns == b.columns}, "
          f"only in first {only_a}, only in second {only_b}", flush=True)
