"""Per-write time of a table property write: the `alter ... set tblproperties` statement
against its command run directly (python_udfs/pipeline/table_properties.py), in one warm
embedded session, alternating per round.

    python writes_bench.py WORK_DIR [ROUNDS]

WORK_DIR gets its own warehouse and Derby metastore (the project's embedded settings)."""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))


def main() -> None:
    work = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    os.environ["CDC_LOCAL_DIR"] = str(work)
    from python_udfs.pipeline.cli import spark_session
    from python_udfs.pipeline.table_properties import sql_property_assignments, write_table_properties

    spark = spark_session()
    spark.sql("create schema if not exists bench_props")
    spark.sql("create table if not exists bench_props.t (a int, b string) using parquet")
    spark.sql("create or replace view bench_props.v as select a from bench_props.t")
    relations = [("bench_props.t", False), ("bench_props.v", True)]

    def statement(i: int) -> None:
        for name, is_view in relations:
            values = {"cdc.version": f"v{i}", "cdc.inputs": f"d{i}"}
            spark.sql(f"alter {'view' if is_view else 'table'} {name} set tblproperties ({sql_property_assignments(values)})")

    def command(i: int) -> None:
        for name, is_view in relations:
            write_table_properties(spark, name, {"cdc.version": f"v{i}", "cdc.inputs": f"d{i}"}, is_view)

    times: dict[str, list[float]] = {"statement": [], "command": []}
    writes = 10  # per relation and round
    for round_ in range(rounds):
        order = [("statement", statement), ("command", command)]
        if round_ % 2:
            order.reverse()
        for name, write in order:
            start = time.perf_counter()
            for i in range(writes):
                write(round_ * 100 + i)
            times[name].append((time.perf_counter() - start) / (writes * len(relations)) * 1000)
    print(f"load average at end: {os.getloadavg()}")
    for name, values in times.items():
        print(f"{name:9} ms per write, rounds 3..{rounds}: median {statistics.median(values[2:]):.1f}, "
              f"min {min(values[2:]):.1f}, max {max(values[2:]):.1f}; all: {' '.join(f'{v:.0f}' for v in values)}")


if __name__ == "__main__":
    main()
