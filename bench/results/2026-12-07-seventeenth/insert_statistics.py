"""What Hive's size statistics cost an insert, in one warm session on a fresh warehouse.

A table of 16 Parquet files (as a staging table between compactions); rounds alternate
"with statistics" (property writes through table_properties.write_table_properties without
NO_SIZE_STATISTICS, as before: Hive counts the files at each, Spark reads the count as
statistics) and "without" (the same writes as they are now, which clear them); each round
times 15 one-row inserts and 15 property writes. Prints the median of each round.

    .venv/bin/python bench/results/2026-12-07-seventeenth/insert_statistics.py
"""
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from pyspark.sql import SparkSession  # noqa: E402

from python_udfs.pipeline import table_properties  # noqa: E402

CLEARING = dict(table_properties.NO_SIZE_STATISTICS)

local = tempfile.mkdtemp(prefix="insert-statistics-")
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.warehouse.dir", f"{local}/warehouse")
         .config("spark.hadoop.javax.jdo.option.ConnectionURL", f"jdbc:derby:;databaseName={local}/metastore_db;create=true")
         .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={local} -XX:+UseParallelGC")
         .enableHiveSupport().getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
table = "bench_statistics.events"
spark.sql("create database if not exists bench_statistics")
spark.sql(f"create table {table} using parquet as select id, sha2(cast(id as string), 256) as change_id,"
          " map('a', cast(id as string)) as image from range(20000)")
for i in range(15):
    spark.sql(f"insert into {table} select id + {20000 * (i + 1)}, change_id, image from {table} limit 1000")
external = spark._jsparkSession.sharedState().externalCatalog()


def median_seconds(action, n=15) -> float:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def insert() -> None:
    spark.sql(f"insert into {table} select * from {table} limit 1")


for round_ in range(3):
    for side in ("with", "without"):
        table_properties.NO_SIZE_STATISTICS = {} if side == "with" else CLEARING
        table_properties.write_table_properties(spark, table, {"cdc.round": str(round_)})

        def write() -> None:
            table_properties.write_table_properties(spark, table, {"cdc.mark": "x"})

        stats = external.getTable("bench_statistics", "events").stats()
        print(f"round {round_} {side:7} statistics: {stats.get().simpleString() if stats.isDefined() else None}; "
              f"insert {median_seconds(insert):.3f} s; property write {median_seconds(write):.3f} s", flush=True)
