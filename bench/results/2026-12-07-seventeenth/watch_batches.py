"""A warm `cdc-pipeline watch` (no warm-up) over N more 1,000-message batches of the small
bench's stream (seed 20261124), on a copy of the small bench's warehouse: prints each batch's
latency and the watch's line. SPY=file samples the watch's Python with py-spy from the third
batch on.

    python watch_batches.py ROOT N [FIRST_BATCH]
"""
import json, os, shutil, subprocess, sys, time
from pathlib import Path
sys.path.insert(0, "/work/main")
from bench.generate import generate_format
from bench.small import read_until, CLI

root = Path(sys.argv[1]); n = int(sys.argv[2]); first = int(sys.argv[3]) if len(sys.argv) > 3 else 7
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
src = Path("/work/main/bench/work/runs/small")
if not root.exists():
    shutil.copytree(src / "local", root / "local")
    for f in formats:
        generate_format(f, [200] * (first + n + 2), 20261124, root / "stream", file_lines=0)
dbt_vars = {"cdc_formats": formats}
env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench",
           DBT_PROFILES_DIR="/work/main/profiles", PYTHONUNBUFFERED="1")
inbox = root / "inbox"
for f in formats:
    (inbox / f).mkdir(parents=True, exist_ok=True)
w = subprocess.Popen([*CLI, "watch", *[str(inbox / f) for f in formats], "--interval", "0.2", "--settle", "0",
                      "--no-warm-up", "--checks-idle", "100000", "--dbt-arg=--vars", f"--dbt-arg={json.dumps(dbt_vars)}",
                      "--dbt-arg=--log-path", f"--dbt-arg={root / 'logs'}"],
                     env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
try:
    read_until(w, "watching")
    spy = None
    for i in range(n):
        if i == 2 and os.environ.get("SPY"):
            spy = subprocess.Popen(["/tmp/pyspy/bin/py-spy", "record", "--pid", str(w.pid), "--rate", "100", "--format", "raw", "-o", os.environ["SPY"]],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); time.sleep(1)
        source = root / "stream" / f"batch-{first + i}"
        t = time.perf_counter()
        for f in formats:
            for p in (source / f).rglob("*.jsonl"):
                p.rename(inbox / f / f"r{first+i}-{p.parent.name}-{p.name}")
        line = read_until(w, f"batch {1 + i}:")
        print(f"batch {first+i}: {time.perf_counter() - t:.2f} s | {line.strip()}", flush=True)
    if spy: spy.send_signal(2); spy.wait(timeout=60)
finally:
    w.terminate(); w.wait(timeout=300)
