"""A/B of two compiled selects in one embedded Spark, alternating, on a benchmark's warehouse.

    .venv/bin/python bench/results/2026-12-03-night-one-shuffle/ab_compiled_sql.py \
        bench/work/runs/main/cdc_local A.sql B.sql [--reps 3] [--check]

A.sql and B.sql are selects as dbt compiles them (target/compiled/...), edited by hand. Each
rep runs A then B into Spark's `noop` sink (the whole plan runs, nothing is written), so the
JVM is equally warm for both; the first rep pays the cold JIT. `--check` first compares the
two results (row count and an order-free hash of every row). Prints the Exchange nodes of
each physical plan too. Spark settings: the embedded profile's (local[2], AQE, 8 shuffle
partitions, UTC), with generated code on.
"""

from __future__ import annotations

import argparse
import time

from pyspark.sql import SparkSession


def session(local_dir: str, java_options: str = "") -> SparkSession:
    """The embedded settings; `java_options`: more driver JVM options."""
    builder = (
        SparkSession.builder.enableHiveSupport()
        .master("local[2]")
        .config("spark.driver.memory", "8g")
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.sql.adaptive.enabled", "true")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.mapKeyDedupPolicy", "LAST_WIN")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.warehouse.dir", f"{local_dir}/warehouse")
        .config("spark.hadoop.javax.jdo.option.ConnectionURL",
                f"jdbc:derby:;databaseName={local_dir}/metastore_db;create=true")
        .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={local_dir} -XX:+UseParallelGC {java_options}".strip())
    )
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("local_dir")
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    spark = session(args.local_dir)
    queries = {"A": open(args.a, encoding="utf-8").read(), "B": open(args.b, encoding="utf-8").read()}
    for name, query in queries.items():
        plan = spark.sql(query)._jdf.queryExecution().executedPlan().toString()
        exchanges = [line.strip() for line in plan.splitlines() if "Exchange hashpartitioning" in line]
        print(f"{name}: {len(exchanges)} hash exchanges", *exchanges, sep="\n  ", flush=True)
    if args.check:
        for name, query in queries.items():
            row = spark.sql(
                f"select count(*) as n, sum(cast(xxhash64(to_json(struct(t.*))) % 1000000007 as decimal(38, 0))) as h"
                f" from ({query}) as t"
            ).collect()[0]
            print(f"{name}: {row.n} rows, hash {row.h}", flush=True)
    for rep in range(args.reps):
        for name, query in queries.items():
            started = time.perf_counter()
            spark.sql(query).write.format("noop").mode("overwrite").save()
            print(f"rep {rep} {name}: {time.perf_counter() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main()
