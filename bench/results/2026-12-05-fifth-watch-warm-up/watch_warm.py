"""A `cdc-pipeline watch` on CDC_LOCAL_DIR with or without its warm-up: the latency of one
batch moved in once it is ready.

    CDC_LOCAL_DIR=W CDC_SCHEMA=bench .venv/bin/python watch_warm.py STREAM N warm|cold INBOX"""
import json, os, shutil, subprocess, sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]; sys.path.insert(0, str(ROOT))
from bench.generate import FORMAT_WRITERS, base_tables
FORMATS = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
keys = {}
for f in FORMATS:
    keys.update(FORMAT_WRITERS[f]().primary_keys(base_tables()))
dbt_vars = json.dumps({"cdc_formats": FORMATS, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False})
stream, batch, mode, inbox = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], Path(sys.argv[4])
shutil.rmtree(inbox, ignore_errors=True)
for f in FORMATS: (inbox / f).mkdir(parents=True)
extra = [] if mode == "warm" else ["--no-warm-up"]
t0 = time.perf_counter()
w = subprocess.Popen([sys.executable, "-m", "python_udfs.pipeline.cli", "--project-dir", str(ROOT), "watch",
     *[str(inbox / f) for f in FORMATS], "--interval", "0.2", "--settle", "0", *extra,
     "--dbt-arg=--vars", f"--dbt-arg={dbt_vars}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
     env=dict(os.environ, PYTHONUNBUFFERED="1"))
def until(text):
    while True:
        line = w.stdout.readline()
        if not line: raise SystemExit("watch ended")
        if text in line: return line.strip()
print(f"{time.perf_counter()-t0:6.1f}", until("batch 1:"), flush=True)
if mode == "warm":
    print(f"{time.perf_counter()-t0:6.1f}", until("warm-up:"), flush=True)
else:
    time.sleep(1)
s = time.perf_counter()
for f in FORMATS:
    for p in (stream / f"batch-{batch}" / f).rglob("*.jsonl"):
        shutil.copy(p, inbox / f / f"b{batch}-{p.parent.name}-{p.name}")
line = until("batch 2:")
print(f"{time.perf_counter()-t0:6.1f} latency {time.perf_counter()-s:.1f} s  {line}", flush=True)
w.terminate(); w.wait(timeout=120)
