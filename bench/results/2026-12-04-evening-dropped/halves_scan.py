"""What reading the update halves costs: every column of every staged half (as the incremental
int_update_halves_paired reads them before joining its touched groups) against the group's
key columns only. Noop sink, warm JVM, on a benchmark's warehouse (the main run's formats).

    .venv/bin/python bench/results/2026-12-04-evening-dropped/halves_scan.py bench/work/runs/main/cdc_local
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session  # noqa: E402

FORMATS = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
spark = session(sys.argv[1])
staged = "(" + " union all ".join(f"select * from bench_staging.stg_{f}__events" for f in FORMATS) + ") as staged"
queries = {
    "every column": f"select * from {staged} where event_class = 'update_half'",
    "key columns": f"select source_format, table_id, pairing_key, event_id, landed_at from {staged}"
                   " where event_class = 'update_half'",
}
for row in spark.sql(f"select source_format, event_class, count(*) as n from {staged} group by all order by 1, 2").collect():
    print(*row)
for rep in range(4):
    for name, query in queries.items():
        start = time.perf_counter()
        spark.sql(query).write.format("noop").mode("overwrite").save()
        print(rep, name, round(time.perf_counter() - start, 2), flush=True)
