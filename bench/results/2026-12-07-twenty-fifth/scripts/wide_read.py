"""The state layers' read of the base layer for a batch's touched keys, on the 1M warehouse: every
column (as the delta-layer write reads it today) against the narrow columns a winner decision
needs (key, sort_key, flags). 1,000 touched keys drawn from the state."""
import sys, time, statistics, json
from pathlib import Path
sys.path.insert(0, "/work/main")
from python_udfs.pipeline import cli
V = open("/tmp/r25/vars-main.json").read()
assert cli.run_dbt(Path("/work/main"), ["run-operation", "create_landing_tables", "--quiet", "--vars", V])
spark = cli.spark_session()
for t in ("int_current_state_layers", "int_row_history_layers"):
    print(t, spark.sql(f"select state_layer, count(*) from bench_staging.{t} group by 1").collect())
spark.sql("select xxhash64(table_id, row_key) as h from bench_staging.int_current_state_layers where table_id is not null order by rand(7) limit 1000").createOrReplaceTempView("touched")
spark.table("touched").cache().count()
qs = {}
for t in ("int_current_state_layers", "int_row_history_layers"):
    img2 = "column_types" if t.startswith("int_current") else "change_image"
    base = f"select /*+ broadcast(touched) */ b.* from bench_staging.{t} b left semi join touched on xxhash64(b.table_id, b.row_key) = touched.h where b.state_layer = 'base'"
    qs[t + " wide"] = f"select count(*), sum(size(row_image)), max(sort_key), sum(size(coalesce({img2}, map()))), max(landed_at) from ({base})"
    qs[t + " narrow"] = f"select count(*), max(sort_key), max(landed_at) from ({base})"
    qs[t + " scan all"] = f"select count(*), sum(size(row_image)), sum(size(coalesce({img2}, map()))), max(sort_key) from bench_staging.{t} where state_layer = 'base'"
for q in qs.values(): spark.sql(q).collect()
res = {k: [] for k in qs}
for i in range(5):
    for k, q in qs.items():
        t0 = time.perf_counter(); spark.sql(q).collect(); res[k].append(time.perf_counter() - t0)
for k, v in res.items(): print(f"{k:40} median {statistics.median(v):.3f}", [round(x, 3) for x in v])
