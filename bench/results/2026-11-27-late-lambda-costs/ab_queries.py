# Measurement script of bench/results/2026-11-27-late-lambda-costs/README.md, kept as it ran
# (paths are the scratch folder and bench warehouse of that machine: /work/benchwork/runs/main
# is the warehouse `python -m bench.run --only main --keep-streams --work /work/benchwork` leaves).
"""Paired A/B of staging queries written as Parquet (insert into a scratch table), alternating."""
import json, os, sys, time
from pathlib import Path
run_dir = Path("/work/benchwork/runs/main")
PROJECT = Path("/work/main")
os.environ.update({"CDC_LOCAL_DIR": str(run_dir / "cdc_local"), "CDC_SCHEMA": "bench", "SPARK_LOCAL_IP": "127.0.0.1",
    "CDC_DRIVER_MEMORY": "8g",
    "DBT_PROFILES_DIR": str(PROJECT / "profiles"), "CDC_LOG4J_CONFIG": str(PROJECT / "profiles" / "log4j2.properties")})
scenario = json.loads((run_dir / "scenario.json").read_text())
from dbt.cli.main import dbtRunner
res = dbtRunner().invoke(["run-operation", "create_landing_tables", "--project-dir", str(PROJECT), "--vars", json.dumps({"cdc_landing_schema": "bench_landing", **scenario["vars"]}), "--quiet", "--log-path", "/work/exp/s19/logs", "--target-path", "/work/exp/s19/target"])
compiled = {}
for model in os.environ.get("MODELS", "").split(","):
    if not model: continue
    r = dbtRunner().invoke(["compile", "-s", model, "--full-refresh", "--project-dir", str(PROJECT), "--target-path", "/work/exp/s19/target", "--log-path", "/work/exp/s19/logs", "--vars", json.dumps({"cdc_landing_schema": "bench_landing", **scenario["vars"]}), "--quiet"])
    sql = r.result.results[0].node.compiled_code
    Path(f"/work/exp/s19/{model}.new.sql").write_text(sql)
    old = os.environ.get("OLD_PROJECT")
    if old:
        r = dbtRunner().invoke(["compile", "-s", model, "--full-refresh", "--project-dir", old, "--target-path", "/work/exp/s19/target_old", "--log-path", "/work/exp/s19/logs", "--vars", json.dumps({"cdc_landing_schema": "bench_landing", **scenario["vars"]}), "--quiet"])
        Path(f"/work/exp/s19/{model}.old.sql").write_text(r.result.results[0].node.compiled_code)
    else:
        Path(f"/work/exp/s19/{model}.old.sql").write_text(sql.replace("sort_array(map_entries(", "array_sort(map_entries(").replace("sort_array(json_object_keys", "array_sort(json_object_keys"))
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
reps = int(os.environ.get("REPS", "3"))
files = sys.argv[1:]
times = {f: [] for f in files}
for r in range(reps):
    for f in files:
        q = Path(f).read_text()
        spark.sql("drop table if exists bench.ab_scratch")
        t = time.perf_counter()
        spark.sql("create table bench.ab_scratch using parquet as " + q)
        times[f].append(time.perf_counter() - t)
        print(r, f, round(times[f][-1], 2), flush=True)
for f in files:
    v = sorted(times[f]); print(f, "min", round(v[0], 2), "median", round(v[len(v)//2], 2))
