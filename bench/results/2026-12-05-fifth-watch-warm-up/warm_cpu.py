"""Warm small batches in one process: wall, Python CPU and JVM CPU of each build.

    CDC_LOCAL_DIR=W CDC_SCHEMA=bench DBT_PROFILES_DIR=profiles .venv/bin/python warm_cpu.py STREAM FIRST LAST

STREAM: batches from bench/results/2026-12-05-fourth-small-levers/gen_batches.py; W must hold
every batch before FIRST (build them with this script first)."""
import json, os, resource, sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]; sys.path.insert(0, str(ROOT))
from bench.generate import FORMAT_WRITERS, base_tables
from python_udfs.pipeline.cli import run_dbt, spark_session
from python_udfs.pipeline.landing import land_formats
FORMATS = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
keys = {}
for f in FORMATS:
    keys.update(FORMAT_WRITERS[f]().primary_keys(base_tables()))
VARS = json.dumps({"cdc_formats": FORMATS, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False})
stream = Path(sys.argv[1]); first, last = int(sys.argv[2]), int(sys.argv[3])
cmd = sys.argv[4] if len(sys.argv) > 4 else "build"
def jvm_cpu():
    tot = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit(): continue
        try:
            cmdline = open(f"/proc/{pid}/cmdline","rb").read()
            if b"java" not in cmdline.split(b"\0")[0]: continue
            st = open(f"/proc/{pid}/stat").read().rsplit(")",1)[1].split()
            tot += (int(st[11]) + int(st[12])) / os.sysconf("SC_CLK_TCK")
        except OSError: pass
    return tot
def py_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
run_dbt(ROOT, ["run-operation", "create_landing_tables", "--quiet", "--vars", VARS])
spark = spark_session()
for i in range(first, last + 1):
    plan = {f: sorted((stream / f"batch-{i}" / f).rglob("*.jsonl")) for f in FORMATS}
    land_formats(spark, plan, project_dir=ROOT, landing_schema="cdc_landing",
                 scratch_dir=Path(os.environ["CDC_LOCAL_DIR"]) / "tmp", progress=False)
    w, p, j = time.perf_counter(), py_cpu(), jvm_cpu()
    ok = run_dbt(ROOT, [cmd, "--vars", VARS, "--quiet"])
    print(f"batch {i}: {cmd} wall {time.perf_counter()-w:.1f} s, python cpu {py_cpu()-p:.1f} s, jvm cpu {jvm_cpu()-j:.1f} s ok={ok}", flush=True)
