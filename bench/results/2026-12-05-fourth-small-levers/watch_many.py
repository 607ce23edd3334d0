"""A warm `cdc-pipeline watch` over several 1,000-message batches, moved in one after another:
each batch's latency, from the copy into the watched folders to the watch's "batch N:" line.

    .venv/bin/python bench/results/2026-12-05-fourth-small-levers/watch_many.py \
        LOCAL_DIR STREAM_DIR FIRST LAST INBOX

LOCAL_DIR: a warehouse built by `bench.run --only small` (a copy: it is written to);
STREAM_DIR: the batches (`batch-<n>/<format>/...`, bench.generate.generate_format with 200
messages per format and batch, seed 20261124, as bench/small.py writes them); FIRST..LAST:
the batches to move in, in order (the warehouse must hold every batch before FIRST, or the
data tests see updates of rows that never landed). CDC_THREADS is passed through.
"""
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from bench.generate import FORMAT_WRITERS, base_tables  # noqa: E402

FORMATS = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
keys: dict = {}
for f in FORMATS:
    keys.update(FORMAT_WRITERS[f]().primary_keys(base_tables()))
dbt_vars = json.dumps({"cdc_formats": FORMATS, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False})
local, stream, first, last, inbox = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), Path(sys.argv[5])
shutil.rmtree(inbox, ignore_errors=True)
for f in FORMATS:
    (inbox / f).mkdir(parents=True)
env = dict(os.environ, CDC_LOCAL_DIR=local, CDC_SCHEMA="bench", DBT_PROFILES_DIR=str(ROOT / "profiles"),
           PYTHONUNBUFFERED="1")
watcher = subprocess.Popen(
    [sys.executable, "-m", "python_udfs.pipeline.cli", "--project-dir", str(ROOT), "watch",
     *[str(inbox / f) for f in FORMATS], "--interval", "0.2", "--settle", "0",
     "--dbt-arg=--vars", f"--dbt-arg={dbt_vars}"],
    env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
)


def until(text: str) -> str:
    while True:
        line = watcher.stdout.readline()
        if not line:
            raise SystemExit("the watch ended")
        if text in line:
            return line.strip()


print(until("batch 1:"), flush=True)
for i, batch in enumerate(range(first, last + 1)):
    started = time.perf_counter()
    for f in FORMATS:
        for path in (stream / f"batch-{batch}" / f).rglob("*.jsonl"):
            shutil.copy(path, inbox / f / f"b{batch}-{path.parent.name}-{path.name}")
    line = until(f"batch {2 + i}:")
    print(f"{time.perf_counter() - started:.1f} s  {line}", flush=True)
watcher.terminate()
watcher.wait(300)
