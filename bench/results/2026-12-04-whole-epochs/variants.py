"""Warm cost of variants of one compiled select (each a list of (old, new) text swaps)."""
import importlib.util, sys, time, json
from pathlib import Path
spec = importlib.util.spec_from_file_location("ab", "/work/main/bench/results/2026-12-03-night-one-shuffle/ab_compiled_sql.py")
ab = importlib.util.module_from_spec(spec); spec.loader.exec_module(ab)
local_dir, path, variants_path = sys.argv[1], sys.argv[2], sys.argv[3]
target = sys.argv[4] if len(sys.argv) > 4 else None
spark = ab.session(local_dir)
query = open(path).read()
if target:
    query = query[: query.rindex("\nselect")] + f"\nselect * from {target}"
variants = json.load(open(variants_path))
def run(sql):
    t = time.perf_counter(); spark.sql(sql).write.format("noop").mode("overwrite").save(); return time.perf_counter() - t
run(query); run(query)
sqls = {}
for name, swaps in variants.items():
    q = query
    for old, new in swaps:
        assert old in q, (name, old[:60]); q = q.replace(old, new)
    sqls[name] = q
res = {n: [] for n in sqls}
for rep in range(3):
    for n, q in sqls.items():
        res[n].append(run(q))
for n, ts in res.items():
    print(f"{n}: {' '.join(f'{t:.2f}' for t in ts)}  best {min(ts):.2f}", flush=True)
