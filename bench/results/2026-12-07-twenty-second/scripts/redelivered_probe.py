"""int_redelivered_changes in a warm watch warehouse: the whole select against a probe of its
candidate hashes only (limit 1), alternating, one session."""
import os, sys, time, statistics, re, json
from pathlib import Path
sys.path.insert(0, "/work/main")
os.chdir("/work/main")
from python_udfs.pipeline import cli
V = open("/tmp/r22/vars.json").read()
assert cli.run_dbt(Path("/work/main"), ["compile", "--quiet", "--vars", V, "-s", "int_redelivered_changes", "--target-path", "/tmp/r22/ctarget"])
sql = next(Path("/tmp/r22/ctarget/compiled").rglob("int_redelivered_changes.sql")).read_text()
spark = cli.spark_session()
cte_end = sql.index("candidates as (")
probe = sql[:cte_end].rstrip().rstrip(",") + "\nselect 1 from candidate_hashes limit 1"
full = f"select count(*) from ({sql}) as q"
res = {"full": [], "probe": []}
for i in range(10):
    for k, q in (("full", full), ("probe", probe)) if i % 2 else (("probe", probe), ("full", full)):
        t = time.perf_counter(); r = spark.sql(q).collect(); res[k].append(time.perf_counter() - t)
for k, v in res.items(): print(k, "median %.3f" % statistics.median(v[2:]), [round(x, 3) for x in v])
print("full rows", spark.sql(full).collect(), "probe rows", len(spark.sql(probe).collect()))
