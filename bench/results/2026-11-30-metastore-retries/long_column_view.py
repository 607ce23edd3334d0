"""Time view statements whose column name the Derby metastore cannot hold (README here).

    .venv/bin/python bench/results/2026-11-30-metastore-retries/long_column_view.py 800 \
        [spark.hadoop.hive.hmshandler.retry.interval=50ms ...]

A fresh Spark session with its own Derby metastore in a temporary folder; the first argument
is the column name's length, the others Spark settings (key=value). Prints each statement's
seconds, then that the view answers with its exact column name.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from pyspark.sql import SparkSession

PROJECT = Path(__file__).resolve().parents[3]


def main(length: int, settings: list[str]) -> None:
    work = tempfile.mkdtemp(prefix="hms-")
    builder = (
        SparkSession.builder.master("local[2]").enableHiveSupport()
        .config("spark.sql.warehouse.dir", f"{work}/warehouse")
        .config("spark.hadoop.javax.jdo.option.ConnectionURL", f"jdbc:derby:;databaseName={work}/metastore_db;create=true")
        .config("spark.driver.extraJavaOptions",
                f"-Dderby.system.home={work} -Dlog4j2.configurationFile={PROJECT}/profiles/log4j2.properties")
    )
    for setting in settings:
        key, value = setting.split("=", 1)
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sql("create database d")
    spark.sql("create table d.t using parquet as select map('a', '1') as m")
    name = "y" * length
    for label, statement in [
        ("create view, long column", f"create or replace view d.v as select m['a'] as `{name}` from d.t"),
        ("alter view, long column", "alter view d.v set tblproperties ('k' = 'v')"),
        ("create view, long struct field", f"create or replace view d.w as select named_struct('{name}', m['a']) as typed from d.t"),
        ("alter view, long struct field", "alter view d.w set tblproperties ('k' = 'v')"),
    ]:
        started = time.perf_counter()
        spark.sql(statement)
        print(f"{time.perf_counter() - started:6.2f} s  {label}", flush=True)
    view = spark.table("d.v")
    assert view.columns == [name] and view.collect()[0][0] == "1"
    print("the view answers with its exact column name")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2:])
