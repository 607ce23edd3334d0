"""int_redelivered_changes' earlier-id read: the 64-character change_id hashed as today, against a
long column of the same rows (standing for a stored 64-bit hash), on the 1M warehouse."""
import sys, time, statistics
from pathlib import Path
sys.path.insert(0, "/work/main")
from python_udfs.pipeline import cli
V = open("/tmp/r22/vars.json").read()
assert cli.run_dbt(Path("/work/main"), ["run-operation", "create_landing_tables", "--quiet", "--vars", V])
spark = cli.spark_session()
tabs = [r for r in ["stg_dataworks__events","stg_datahub_tuple__events","stg_canal__events","stg_debezium__events","stg_shareplex__events"]]
u = lambda col: " union all ".join(f"select {col} as v from bench_staging.{t} where event_class = 'change'" for t in tabs)
qs = {"string id hashed": f"select count(*), max(v) from ({u('xxhash64(change_id)')})",
      "a long column": f"select count(*), max(v) from ({u('xxhash64(row_index)')})"}
for k in qs: spark.sql(qs[k]).collect()
res = {k: [] for k in qs}
for i in range(6):
    for k, q in qs.items():
        t = time.perf_counter(); spark.sql(q).collect(); res[k].append(time.perf_counter() - t)
for k, v in res.items(): print(k, "median %.3f" % statistics.median(v), [round(x, 3) for x in v])
print(spark.sql(qs["string id hashed"]).collect())
