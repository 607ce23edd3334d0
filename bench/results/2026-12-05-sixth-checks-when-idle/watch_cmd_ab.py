"""Latency of back-to-back 1,000-message batches in a watch (no warm-up), per dbt command.

    .venv/bin/python watch_cmd_ab.py WORK MODE [MODE...]   (MODE: build | run)"""
import json, os, shutil, subprocess, sys, time, statistics
from pathlib import Path
ROOT = Path("/work/main"); sys.path.insert(0, str(ROOT))
from bench.generate import FORMAT_WRITERS, base_tables, generate_format
from bench.small import read_until, batch_folders, CLI
FORMATS = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
keys = {}
for f in FORMATS:
    keys.update(FORMAT_WRITERS[f]().primary_keys(base_tables()))
dbt_vars = json.dumps({"cdc_formats": FORMATS, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False})
work = Path(sys.argv[1]); N = 8
for mode in sys.argv[2:]:
    root = work / mode; shutil.rmtree(root, ignore_errors=True)
    stream = root / "stream"
    for f in FORMATS:
        generate_format(f, [200] * (N + 1), 20261124, stream, file_lines=0)
    env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench", PYTHONUNBUFFERED="1",
               DBT_PROFILES_DIR=str(ROOT / "profiles"))
    subprocess.run([*CLI, "watch", *batch_folders(stream, 0, FORMATS), "--max-batches", "1",
                    "--dbt-arg=--vars", f"--dbt-arg={dbt_vars}"], env=env, check=True, capture_output=True)
    inbox = root / "inbox"
    for f in FORMATS: (inbox / f).mkdir(parents=True)
    extra = os.environ.get("WATCH_EXTRA", "").split()
    w = subprocess.Popen([*CLI, "watch", *[str(inbox / f) for f in FORMATS], "--interval", "0.2", "--settle", "0",
                          "--no-warm-up", "--dbt-command", mode, *extra, "--dbt-arg=--vars", f"--dbt-arg={dbt_vars}"],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    read_until(w, "batch 1:")
    lat = []
    for i in range(1, N + 1):
        s = time.perf_counter()
        for f in FORMATS:
            for p in (stream / f"batch-{i}" / f).rglob("*.jsonl"):
                p.rename(inbox / f / f"b{i}-{p.parent.name}-{p.name}")
        line = read_until(w, f"batch {i + 1}:")
        lat.append(round(time.perf_counter() - s, 2))
        print(mode, i, lat[-1], line.strip(), flush=True)
    w.terminate(); w.wait(timeout=300)
    print(f"{mode}: {lat} median of last 3 {statistics.median(lat[-3:])} load {os.getloadavg()[0]:.2f}", flush=True)
