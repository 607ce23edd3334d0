"""The 1M warehouse's current-state base layer read whole (every column, as the incremental run
reads the touched keys' prior rows) and narrow (the key, its hash, sort key and flags), warm.

    .venv/bin/python bench/results/2026-12-05-fourth-small-levers/base_layer_widths.py
"""
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench/results/2026-12-03-night-one-shuffle"))
import ab_compiled_sql  # noqa: E402

spark = ab_compiled_sql.session(str(ROOT / "bench/work/runs/main/cdc_local"))
table = "bench_staging.int_current_state_layers"
print(spark.sql(f"select state_layer, count(*) from {table} group by 1").collect())
queries = {
    "whole": f"select xxhash64(table_id, row_key) as h, * from {table} where state_layer = 'base'",
    "narrow": f"select xxhash64(table_id, row_key) as h, table_id, row_key, sort_key, image_is_merged, is_deleted"
              f" from {table} where state_layer = 'base'",
}
figures = {name: [] for name in queries}
for _ in range(7):
    for name, query in queries.items():
        started = time.perf_counter()
        spark.sql(query).write.format("noop").mode("overwrite").save()
        figures[name].append(round(time.perf_counter() - started, 2))
for name, walls in figures.items():
    print(name, "median after the first", statistics.median(walls[1:]), walls)
