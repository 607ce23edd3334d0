"""A long warm `cdc-pipeline watch`: batch latency over many small batches, with the appended
tables' compaction on (the default) or off (`cdc_compact_min_files: 0`).

    .venv/bin/python bench/results/2026-11-30-compaction/long_watch.py WORK on|off [BATCHES]

A fresh warehouse in WORK; 1,000-message batches (200 per format, five formats, generated
as bench/small.py does) moved into the watched folders one after another; prints each
batch's latency (files moved -> the watch's "batch N:" line) and, at the end, the files
per appended table. One process, so the figures of `on` and `off` runs are comparable only
when run back to back on the same load.
"""
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(PROJECT))
from bench.generate import generate_format  # noqa: E402
from bench.run import FORMAT_WRITERS, base_tables  # noqa: E402
from bench.small import CLI, read_until  # noqa: E402

FORMATS = ["canal", "datahub_tuple", "dataworks", "debezium", "shareplex"]


def main() -> None:
    work, mode = Path(sys.argv[1]), sys.argv[2]
    batches = int(sys.argv[3]) if len(sys.argv) > 3 else 24
    root = work / f"long-{mode}"
    shutil.rmtree(root, ignore_errors=True)
    stream = root / "stream"
    for format_id in FORMATS:
        generate_format(format_id, [200] * (1 + batches), 20261130, stream, file_lines=0)
    keys = {}
    for format_id in FORMATS:
        keys.update(FORMAT_WRITERS[format_id]().primary_keys(base_tables()))
    dbt_vars = {"cdc_formats": FORMATS, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False}
    if mode == "off":
        dbt_vars["cdc_compact_min_files"] = 0
    env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench", PYTHONUNBUFFERED="1",
               DBT_PROFILES_DIR=str(PROJECT / "profiles"), DBT_TARGET_PATH=str(root / "target"),
               DBT_LOG_PATH=str(root / "logs"))
    inbox = root / "inbox"
    for format_id in FORMATS:
        (inbox / format_id).mkdir(parents=True)
    watcher = subprocess.Popen(
        [*CLI, "watch", *[str(inbox / f) for f in FORMATS], "--interval", "0.2", "--settle", "0",
         "--dbt-arg=--vars", f"--dbt-arg={json.dumps(dbt_vars)}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=PROJECT,
    )
    latencies = []
    try:
        read_until(watcher, "batch 1:")  # the first cycle: nothing landed yet
        for number in range(1 + batches):
            started = time.perf_counter()
            for format_id in FORMATS:
                for path in (stream / f"batch-{number}" / format_id).rglob("*.jsonl"):
                    path.rename(inbox / format_id / f"b{number}-{path.parent.name}-{path.name}")
            line = read_until(watcher, f"batch {2 + number}:")
            latencies.append(round(time.perf_counter() - started, 2))
            print(number, latencies[-1], line.strip(), flush=True)
    finally:
        watcher.terminate()
        watcher.wait(timeout=300)
    files = {}
    for folder in sorted((root / "local" / "warehouse").glob("*.db/*")):
        count = len(list(folder.rglob("*.parquet")))
        if count:
            files[f"{folder.parent.name}/{folder.name}"] = count
    print(json.dumps({"mode": mode, "latencies_s": latencies, "parquet_files_per_folder": files}), flush=True)


if __name__ == "__main__":
    main()
