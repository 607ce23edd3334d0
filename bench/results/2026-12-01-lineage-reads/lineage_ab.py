"""The landing's read of a table's lineage before its insert: one full read (before) against
lineage_seen's pruned reads (after), paired in one warm session (README here).

    CDC_LOCAL_DIR=/tmp/lineage-bench CDC_SCHEMA=lineage \
        .venv/bin/python bench/results/2026-12-01-lineage-reads/lineage_ab.py ROWS:FILES [ROWS:FILES ...]

For each size, a landing table of ROWS file lines (one origin and one landing time per
1,000 rows, written in landing order into FILES Parquet files), its commit mark on the
last batch, then blocks of the two reads in the order A B B A (3 blocks after a warm-up of
each), asking about two origins that never landed. Prints the medians and their ratio.
Then the same pairing for the staging models' first metadata query (staging_read_plan):
`max(landed_at)` over every row (before) against over the rows at or after the mark (after),
on the same table (an appended staging table is laid out the same way: batches in order).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from python_udfs.pipeline import cli
from python_udfs.pipeline.landing import lineage_seen, record_committed_batch

PROJECT = Path(__file__).resolve().parents[3]
VARS = {"cdc_formats": ["canal"], "cdc_landing_schema": "lineage_landing"}
cli.run_dbt(PROJECT, ["run-operation", "create_landing_tables", "--quiet", "--vars", json.dumps(VARS)])

import datetime as dt  # noqa: E402

from pyspark.sql import SparkSession  # noqa: E402

spark = SparkSession.builder.getOrCreate()
TABLE = "lineage_landing.raw_canal"
ORIGINS = ["landing/canal/never-1.jsonl", "landing/canal/never-2.jsonl"]


def before(table: str) -> dict:
    """The read landing did before (3733cee and earlier): every row's lineage columns."""
    spark.createDataFrame([(o,) for o in ORIGINS], "origin string").createOrReplaceTempView("bench_origins")
    row = spark.sql(
        f"""
        select
            cast(max(existing.landed_at) as string) as latest,
            count(files.origin) > 0 as files_landed_before,
            count_if(existing.origin_partition is not null) > 0 as records_landed_before
        from {table} as existing
        left join bench_origins as files
            on existing.origin = files.origin
        """
    ).first()
    return row.asDict()


def after(table: str) -> dict:
    return lineage_seen(spark, table, ORIGINS)


def paired(first, second) -> tuple[float, float, list[float], list[float]]:
    times: dict[str, list[float]] = {"before": [], "after": []}
    for block in range(4):
        for name in ("before", "after", "after", "before"):
            started = time.perf_counter()
            (first if name == "before" else second)()
            if block:  # block 0 warms both up
                times[name].append(time.perf_counter() - started)
    return statistics.median(times["before"]), statistics.median(times["after"]), times["before"], times["after"]


for size in sys.argv[1:]:
    rows, files = (int(x) for x in size.split(":"))
    spark.sql(f"truncate table {TABLE}")
    batch = 1000
    spark.range(rows).selectExpr(
        "repeat('x', 300) as raw_value",
        "'canal' as stream_name",
        f"concat('landing/canal/batch-', lpad(cast(id div {batch} as string), 6, '0'), '.jsonl') as origin",
        "cast(null as int) as origin_partition",
        f"id % {batch} + 1 as origin_offset",
        "cast(null as timestamp) as origin_timestamp",
        f"timestamp'2026-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, cast(id div {batch} as int)) as landed_at",
        f"cast(id div {batch} as string) as landing_batch_id",
        "cast(null as string) as message_key",
    ).repartitionByRange(files, "landed_at").sortWithinPartitions("landed_at").write.insertInto(TABLE)
    last = spark.sql(f"select cast(max(landed_at) as string) from {TABLE}").first()[0]
    record_committed_batch(spark, TABLE, dt.datetime.fromisoformat(last))
    a, b = before(TABLE), after(TABLE)
    assert a == b, (a, b)
    b_med, a_med, b_times, a_times = paired(lambda: before(TABLE), lambda: after(TABLE))
    print(
        f"lineage {rows:>9,} rows in {files:>3} files: before {b_med:.3f} s {[round(t, 3) for t in b_times]}"
        f" | after {a_med:.3f} s {[round(t, 3) for t in a_times]} | after/before {a_med / b_med:.2f}",
        flush=True,
    )
    full = f"select cast(max(landed_at) as string) from {TABLE}"
    since = full + f" where landed_at >= timestamp'{last}'"
    assert spark.sql(full).first()[0] == spark.sql(since).first()[0] == last
    b_med, a_med, b_times, a_times = paired(lambda q=full: spark.sql(q).first(), lambda q=since: spark.sql(q).first())
    print(
        f"staging mark {rows:>9,} rows in {files:>3} files: before {b_med:.3f} s {[round(t, 3) for t in b_times]}"
        f" | after {a_med:.3f} s {[round(t, 3) for t in a_times]} | after/before {a_med / b_med:.2f}",
        flush=True,
    )
