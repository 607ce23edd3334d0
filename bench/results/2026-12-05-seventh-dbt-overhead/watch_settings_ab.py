"""Latency of back-to-back 1,000-message watch batches (no warm-up, idle checks deferred), per
Spark setting variant, each on its own fresh warehouse, one after another.

    .venv/bin/python watch_settings_ab.py WORK VARIANT [VARIANT...]
VARIANT: base | sp2 (2 shuffle partitions) | noaqe (adaptive execution off) | th2, th4 (2, 4 dbt threads),
or several joined by '-' (sp2-noaqe)"""
import json, os, re, shutil, subprocess, sys, time, statistics
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

def profiles(root: Path, aqe: bool) -> Path:
    text = (ROOT / "profiles/profiles.yml").read_text()
    if not aqe:
        text = text.replace('spark.sql.adaptive.enabled: "true"', 'spark.sql.adaptive.enabled: "false"')
    folder = root / "profiles"; folder.mkdir(parents=True, exist_ok=True)
    (folder / "profiles.yml").write_text(text)
    return folder

for variant in sys.argv[2:]:
    root = work / variant; shutil.rmtree(root, ignore_errors=True)
    stream = root / "stream"
    for f in FORMATS:
        generate_format(f, [200] * (N + 1), 20261124, stream, file_lines=0)
    env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench", PYTHONUNBUFFERED="1",
               DBT_PROFILES_DIR=str(profiles(root, "noaqe" not in variant)))
    if "sp2" in variant:
        env["CDC_SHUFFLE_PARTITIONS"] = "2"
    for threads in ("2", "4"):
        if f"th{threads}" in variant:
            env["CDC_THREADS"] = threads
    subprocess.run([*CLI, "watch", *batch_folders(stream, 0, FORMATS), "--max-batches", "1",
                    "--dbt-arg=--vars", f"--dbt-arg={dbt_vars}"], env=env, check=True, capture_output=True)
    inbox = root / "inbox"
    for f in FORMATS: (inbox / f).mkdir(parents=True)
    w = subprocess.Popen([*CLI, "watch", *[str(inbox / f) for f in FORMATS], "--interval", "0.2", "--settle", "0",
                          "--no-warm-up", "--checks-idle", "600", "--dbt-arg=--vars", f"--dbt-arg={dbt_vars}"],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    read_until(w, "batch 1:")
    lat, built = [], []
    for i in range(1, N + 1):
        s = time.perf_counter()
        for f in FORMATS:
            for p in (stream / f"batch-{i}" / f).rglob("*.jsonl"):
                p.rename(inbox / f / f"b{i}-{p.parent.name}-{p.name}")
        line = read_until(w, f"batch {i + 1}:")
        lat.append(round(time.perf_counter() - s, 2))
        built.append(float(re.search(r"built in ([\d.]+) s", line).group(1)))
    w.terminate(); w.wait(timeout=300)
    print(f"{variant}: latency {lat} built {built} median of last 5: latency {statistics.median(lat[-5:])}"
          f" built {statistics.median(built[-5:])} load {os.getloadavg()[0]:.2f}", flush=True)
