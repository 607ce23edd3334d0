"""What the layer tables' combined column checks cost on a 1M warehouse, before and after their
primary-key tests (9d34015), whole table and delta layer, alternating in one warm session.

    .venv/bin/python layer_checks_cost.py bench/work/runs/main/cdc_local [REPS]"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session  # noqa: E402

spark = session(sys.argv[1])
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 4
STATE = "count_if((state_layer) is null) as c0, count_if((state_layer) not in ('base', 'delta')) as c1"
QUERIES = {}
for layers, key in (("int_current_state_layers", "state_layer, table_id, row_key"),
                    ("int_row_history_layers", "state_layer, table_id, row_key, change_id, is_deleted")):
    whole = f"bench_staging.{layers} as checked_rows"
    delta = f"(select * from bench_staging.{layers} where state_layer = 'delta' and table_id is not null) as checked_rows"
    QUERIES[f"{layers}: before, whole (state_layer checks)"] = f"select {STATE} from {whole}"
    QUERIES[f"{layers}: after, whole (+ key)"] = f"select {STATE}, count(*) - count(distinct struct({key})) as c2 from {whole}"
    QUERIES[f"{layers}: after, delta (+ key)"] = f"select {STATE}, count(*) - count(distinct struct({key})) as c2 from {delta}"
print({r[0]: r[1] for r in spark.sql("select state_layer, count(*) from bench_staging.int_current_state_layers group by 1").collect()})
times = {name: [] for name in QUERIES}
for rep in range(reps):
    for name, query in QUERIES.items():
        started = time.perf_counter()
        rows = spark.sql(query).collect()
        times[name].append(round(time.perf_counter() - started, 2))
        if rep == 0:
            print(name, rows[0].asDict())
for name, values in times.items():
    print(f"{name}: {values} (median of the last {reps - 1}: {sorted(values[1:])[(reps - 1) // 2]} s)")
