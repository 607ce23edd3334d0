"""Warm cost of reading the staged change ids (hashed) against a long column and a count, on
the 1M benchmark warehouse (bench/work/runs/main): the bound of a hashed-id column for
int_redelivered_changes."""
import sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench/results/2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session
spark = session(str(ROOT / "bench/work/runs/main/cdc_local"))
fmts = ["canal","datahub_tuple","dataworks","debezium","shareplex"]
u = lambda expr: " union all ".join(f"select {expr} as v from bench_staging.stg_{f}__events where event_class = 'change'" for f in fmts)
qs = {"hash_of_change_id": f"select sum(v % 1000) from ({u('xxhash64(change_id)')})",
      "long_column(row_index)": f"select sum(v % 1000) from ({u('cast(row_index as bigint)')})",
      "count_only": f"select count(v) from ({u('1')})"}
for rep in range(4):
    for n, q in qs.items():
        t = time.perf_counter(); spark.sql(q).collect(); print(rep, n, f"{time.perf_counter()-t:.2f} s", flush=True)
