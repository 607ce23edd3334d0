"""Where a warm watch batch's time goes, over back-to-back 1,000-message batches 3..8:
PROFILER=py-spy samples the watch's Python (every thread, idle frames included, raw stacks);
PROFILER=jfr records the driver JVM with Java Flight Recorder (settings=profile).

    .venv/bin/python watch_profile.py WORK OUT"""
import json, os, shutil, subprocess, sys, time
from pathlib import Path
ROOT = Path("/work/main"); sys.path.insert(0, str(ROOT))
from bench.generate import FORMAT_WRITERS, base_tables, generate_format
from bench.small import read_until, batch_folders, CLI
FORMATS = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
keys = {}
for f in FORMATS:
    keys.update(FORMAT_WRITERS[f]().primary_keys(base_tables()))
dbt_vars = json.dumps({"cdc_formats": FORMATS, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False})
root = Path(sys.argv[1]); out = Path(sys.argv[2]); N = 8
PROFILER = os.environ.get("PROFILER", "py-spy")
shutil.rmtree(root, ignore_errors=True)
stream = root / "stream"
for f in FORMATS:
    generate_format(f, [200] * (N + 1), 20261124, stream, file_lines=0)
env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench", PYTHONUNBUFFERED="1",
           DBT_PROFILES_DIR=str(ROOT / "profiles"))
subprocess.run([*CLI, "watch", *batch_folders(stream, 0, FORMATS), "--max-batches", "1",
                "--dbt-arg=--vars", f"--dbt-arg={dbt_vars}"], env=env, check=True, capture_output=True)
inbox = root / "inbox"
for f in FORMATS: (inbox / f).mkdir(parents=True)
w = subprocess.Popen([*CLI, "watch", *[str(inbox / f) for f in FORMATS], "--interval", "0.2", "--settle", "0",
                      "--no-warm-up", "--checks-idle", "600", "--dbt-arg=--vars", f"--dbt-arg={dbt_vars}"],
                     env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
read_until(w, "batch 1:")
lat = []; spy = None
for i in range(1, N + 1):
    if i == 3 and PROFILER == "jfr":
        jvm = subprocess.run(["pgrep", "-f", f"java.*{root}/local"], capture_output=True, text=True).stdout.split()
        jvm = jvm or subprocess.run(["pgrep", "-n", "java"], capture_output=True, text=True).stdout.split()
        subprocess.run(["jcmd", jvm[0], "JFR.start", "name=watch", "settings=profile", f"filename={out}"], check=True)
    elif i == 3:
        spy = subprocess.Popen([str(ROOT / ".venv/bin/py-spy"), "record", "--pid", str(w.pid), "--idle",
                                "--rate", "50", "--format", "raw", "-o", str(out)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
    s = time.perf_counter()
    for f in FORMATS:
        for p in (stream / f"batch-{i}" / f).rglob("*.jsonl"):
            p.rename(inbox / f / f"b{i}-{p.parent.name}-{p.name}")
    line = read_until(w, f"batch {i + 1}:")
    lat.append(round(time.perf_counter() - s, 2))
    print(i, lat[-1], line.strip(), flush=True)
if PROFILER == "jfr":
    subprocess.run(["jcmd", jvm[0], "JFR.stop", "name=watch"], check=True)
else:
    spy.send_signal(2); spy.wait(timeout=60)
w.terminate(); w.wait(timeout=300)
print(f"latencies {lat} load {os.getloadavg()[0]:.2f}", flush=True)
