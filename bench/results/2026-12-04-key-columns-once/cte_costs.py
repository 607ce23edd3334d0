"""Warm cost of a compiled select's CTEs, cumulatively: `select * from CTE` for each CTE named.

    .venv/bin/python bench/results/2026-12-04-key-columns-once/cte_costs.py \
        bench/work/runs/main/cdc_local stg_debezium__events.sql parsed,fields,...,contract_rows

The select is one dbt compiled (`dbt compile --full-refresh`, target/compiled/...). Each
query runs into Spark's `noop` sink (the whole plan runs, nothing is written): the full
select three times to warm the JVM, then each CTE three times, the best of the last two
printed. The step between two CTEs costs about the difference (a later CTE's columns keep
more of the earlier ones alive, so it is a rough split).
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

# the session settings of ab_compiled_sql.py (the embedded profile's), shared
_spec = importlib.util.spec_from_file_location(
    "ab_compiled_sql", Path(__file__).parents[1] / "2026-12-03-night-one-shuffle" / "ab_compiled_sql.py")
ab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ab)


def main() -> None:
    local_dir, path, names = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    spark = ab.session(local_dir)
    query = open(path, encoding="utf-8").read()
    body = query[: query.rindex("\nselect")]

    def run(sql: str) -> float:
        started = time.perf_counter()
        spark.sql(sql).write.format("noop").mode("overwrite").save()
        return time.perf_counter() - started

    run(query)
    run(query)
    print(f"full: {run(query):.1f} s", flush=True)
    for name in names:
        sql = f"{body}\nselect * from {name}"
        run(sql)
        print(f"{name}: {min(run(sql), run(sql)):.1f} s", flush=True)


if __name__ == "__main__":
    main()
