# Measurement script of bench/results/2026-11-27-late-lambda-costs/README.md, kept as it ran
# (paths are the scratch folder and bench warehouse of that machine: /work/benchwork/runs/main
# is the warehouse `python -m bench.run --only main --keep-streams --work /work/benchwork` leaves).
import json, os, sys
from pathlib import Path
run_dir = Path("/work/benchwork/runs/main")
PROJECT = Path("/work/main")
os.environ.update({"CDC_LOCAL_DIR": str(run_dir / "cdc_local"), "CDC_SCHEMA": "bench", "SPARK_LOCAL_IP": "127.0.0.1", "CDC_DRIVER_MEMORY": "8g",
    "DBT_PROFILES_DIR": str(PROJECT / "profiles"), "CDC_LOG4J_CONFIG": str(PROJECT / "profiles" / "log4j2.properties")})
scenario = json.loads((run_dir / "scenario.json").read_text())
from dbt.cli.main import dbtRunner
model = sys.argv[1]
out = {}
for tag, proj in (("old", "/work/wt_bench"), ("new", "/work/main")):
    r = dbtRunner().invoke(["compile", "-s", model, "--full-refresh", "--project-dir", proj, "--target-path", f"/work/exp/s19/target_{tag}", "--log-path", "/work/exp/s19/logs", "--vars", json.dumps({"cdc_landing_schema": "bench_landing", **scenario["vars"]}), "--quiet"])
    out[tag] = r.result.results[0].node.compiled_code
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
a = spark.sql(out["old"]); b = spark.sql(out["new"])
cols = [c for c in a.columns if c not in ("refreshed_through",)]
a = a.selectExpr(*[f"to_json(struct(`{c}`)) as `{c}`" if dict(a.dtypes)[c].startswith("map") or "map<" in dict(a.dtypes)[c] else f"`{c}`" for c in cols])
b = b.selectExpr(*[f"to_json(struct(`{c}`)) as `{c}`" if dict(b.dtypes)[c].startswith("map") or "map<" in dict(b.dtypes)[c] else f"`{c}`" for c in cols])
print("rows", a.count(), b.count(), "old-new", a.exceptAll(b).count(), "new-old", b.exceptAll(a).count())
print("merged rows", spark.sql(out["new"]).where("image_is_merged").count()) if "image_is_merged" in spark.sql(out["new"]).columns else None
