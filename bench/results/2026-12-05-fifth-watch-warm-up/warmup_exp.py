"""Does a warm-up build in scratch schemas (same session) make the next real batch fast?

    CDC_LOCAL_DIR=W DBT_PROFILES_DIR=profiles .venv/bin/python warmup_exp.py STREAM N cold|warm

The experiment behind python_udfs/pipeline/warm_up.py: batch N of STREAM built in a fresh
process, after two sample builds in schema `wu` (warm) or not (cold)."""
import json, os, sys, time, shutil
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]; sys.path.insert(0, str(ROOT))
from bench.generate import FORMAT_WRITERS, base_tables
from python_udfs.pipeline.cli import run_dbt, spark_session
from python_udfs.pipeline.landing import land_formats
FORMATS = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
keys = {}
for f in FORMATS:
    keys.update(FORMAT_WRITERS[f]().primary_keys(base_tables()))
VARS = {"cdc_formats": FORMATS, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False}
stream = Path(sys.argv[1]); real = int(sys.argv[2]); warm = sys.argv[3] == "warm"
local = Path(os.environ["CDC_LOCAL_DIR"])
t0 = time.perf_counter()
def land(schema_landing, plan):
    land_formats(spark_session(), plan, project_dir=ROOT, landing_schema=schema_landing,
                 scratch_dir=local / "tmp", progress=False)
if warm:
    os.environ["CDC_SCHEMA"] = "wu"
    wv = json.dumps({**VARS, "cdc_landing_schema": "wu_landing"})
    tp = ["--target-path", "/tmp/prof/wu-target", "--vars", wv]
    run_dbt(ROOT, ["run-operation", "create_landing_tables", "--quiet", *tp])
    halves = Path("/tmp/prof/wu-samples"); shutil.rmtree(halves, ignore_errors=True)
    plans = [{}, {}]
    for f in FORMATS:
        lines = [l for p in sorted((ROOT / "samples" / f).glob("*.jsonl")) for l in p.read_text().splitlines()]
        for i, part in enumerate((lines[: len(lines) // 2], lines[len(lines) // 2:])):
            d = halves / str(i) / f; d.mkdir(parents=True); (d / "part.jsonl").write_text("\n".join(part) + "\n")
            plans[i][f] = [d / "part.jsonl"]
    for i in range(2):
        t = time.perf_counter(); land("wu_landing", plans[i]); ok = run_dbt(ROOT, ["build", "--quiet", *tp])
        print(f"warm-up {i}: {time.perf_counter()-t:.1f} s ok={ok}", flush=True)
    for s in ("wu", "wu_staging", "wu_landing", "wu_seeds", "wu_typed"):
        spark_session().sql(f"drop database if exists {s} cascade")
    print(f"warm-up total {time.perf_counter()-t0:.1f} s", flush=True)
os.environ["CDC_SCHEMA"] = "bench"
rv = ["--vars", json.dumps(VARS)]
run_dbt(ROOT, ["run-operation", "create_landing_tables", "--quiet", *rv])
plan = {f: sorted((stream / f"batch-{real}" / f).rglob("*.jsonl")) for f in FORMATS}
t = time.perf_counter(); land("cdc_landing", plan); t1 = time.perf_counter()
ok = run_dbt(ROOT, ["build", "--quiet", *rv])
print(f"real batch {real} ({'warm' if warm else 'cold'}): land {t1-t:.1f} s build {time.perf_counter()-t1:.1f} s ok={ok}", flush=True)
