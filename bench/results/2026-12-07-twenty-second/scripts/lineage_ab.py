"""lineage_seen in one scan (landing.py today) against the three aggregates it replaced, on
the landing tables of a warehouse: answers equal, then 8 alternating rounds over all five
tables. Env: DBT_PROFILES_DIR, CDC_LOCAL_DIR, CDC_SCHEMA, LS (landing schema)."""
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, "/work/main")
from pyspark.sql import functions as F  # noqa: E402

from python_udfs.pipeline import cli, landing  # noqa: E402

V = open("/tmp/r22/vars.json").read()
assert cli.run_dbt(Path("/work/main"), ["run-operation", "create_landing_tables", "--quiet", "--vars", V])
spark = cli.spark_session()


def three_aggregates(spark, table, origins):
    """lineage_seen as it was (0c9caad): three filtered aggregates, unioned."""
    existing = spark.table(table)
    mark = landing.committed_through(spark, table)
    recent = existing
    if mark is not None:
        recent = existing.where(F.col("landed_at") >= F.expr(f"timestamp'{mark.isoformat(sep=' ')}'"))

    def flag(name, rows):
        return rows.agg((F.count(F.lit(1)) > 0).cast("string").alias("value")).select(F.lit(name).alias("what"), "value")

    latest = recent.agg(F.max("landed_at").cast("string").alias("value")).select(F.lit("latest").alias("what"), "value")
    answers = {r["what"]: r["value"] for r in latest.unionByName(
        flag("files", existing.where(F.col("origin").isin(origins) if origins else F.lit(False)))
    ).unionByName(flag("records", existing.where(F.col("origin_partition").isNotNull()))).collect()}
    latest_text = answers["latest"]
    if latest_text is None and mark is not None and mark > landing.LANDING_CREATED_MARK:
        latest_text = mark.isoformat(sep=" ", timespec="microseconds")
    return {"latest": latest_text, "files_landed_before": answers["files"] == "true",
            "records_landed_before": answers["records"] == "true"}


schema = os.environ.get("LS", "cdc_landing")
tables = [f"{schema}.raw_{f}" for f in ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]]
for table in tables:
    some = [r["origin"] for r in spark.table(table).select("origin").distinct().limit(2).collect()]
    for origins in ([], ["nowhere.jsonl"], some + ["nowhere.jsonl"]):
        assert landing.lineage_seen(spark, table, origins) == three_aggregates(spark, table, origins), (table, origins)
times = {"three": [], "one": []}
for rep in range(8):
    pair = [("three", three_aggregates), ("one", landing.lineage_seen)]
    for name, fn in pair if rep % 2 else reversed(pair):
        t = time.perf_counter()
        for table in tables:
            fn(spark, table, ["nowhere.jsonl"])
        times[name].append(time.perf_counter() - t)
for name, values in times.items():
    print(f"{name}: median of rounds 3-8 {statistics.median(values[2:]):.3f} s for {len(tables)} tables;",
          " ".join(f"{v:.3f}" for v in values))
print("files per table:", [len(spark.table(t).inputFiles()) for t in tables],
      "rows per table:", [spark.table(t).count() for t in tables], "load", open("/proc/loadavg").read().split()[:3])
