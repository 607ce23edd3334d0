"""A watch with warm-up (env XCOPIES copies of each sample part), then N batches from FIRST: latency + jit."""
import json, os, subprocess, sys, time, shutil
from pathlib import Path
sys.path.insert(0, "/work/main")
from bench.small import read_until
root = Path(sys.argv[1]); n = int(sys.argv[2]); first = int(sys.argv[3]); copies = sys.argv[4]
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench", XCOPIES=copies,
           DBT_PROFILES_DIR="/work/main/profiles", PYTHONUNBUFFERED="1")
inbox = root / "inbox"; shutil.rmtree(inbox, ignore_errors=True)
for f in formats: (inbox / f).mkdir(parents=True, exist_ok=True)
t0 = time.perf_counter()
w = subprocess.Popen([sys.executable, "-m", "python_udfs.pipeline.cli", "--project-dir", "/work/main", "watch", *[str(inbox / f) for f in formats], "--interval", "0.2", "--settle", "0",
                      "--dbt-arg=--vars", f"--dbt-arg={json.dumps({'cdc_formats': formats})}",
                      "--dbt-arg=--log-path", f"--dbt-arg={root / 'logs'}"],
                     env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd="/work/main")
def jit():
    jp = subprocess.run(["pgrep", "-P", str(w.pid), "java"], capture_output=True, text=True).stdout.split()
    r = subprocess.run(["/usr/lib/jvm/java-17-openjdk-amd64/bin/jstat", "-compiler", jp[0]], capture_output=True, text=True).stdout.split("\n")[1].split()
    return int(r[0]), float(r[3])
lat = []
try:
    print(f"copies={copies}", read_until(w, "warm-up:").strip(), f"at {time.perf_counter()-t0:.1f} s load {open('/proc/loadavg').read().split()[:3]}", flush=True)
    for i in range(n):
        source = root / "stream" / f"batch-{first + i}"
        c0, s0 = jit(); t = time.perf_counter()
        for f in formats:
            for p in (source / f).rglob("*.jsonl"):
                p.rename(inbox / f / f"r{first+i}-{p.parent.name}-{p.name}")
        line = read_until(w, f"batch {2 + i}:")
        dt = time.perf_counter() - t; c1, s1 = jit(); lat.append(round(dt, 2))
        print(f"copies={copies} batch {first+i}: {dt:.2f} s  jit {c1-c0} methods {s1-s0:.1f} s | {line.strip()[:120]}", flush=True)
    print(f"copies={copies} latencies {lat}", flush=True)
    jp = subprocess.run(["pgrep", "-P", str(w.pid), "java"], capture_output=True, text=True).stdout.split()[0]
    print(subprocess.run(["jcmd", jp, "Compiler.codecache"], capture_output=True, text=True).stdout, flush=True)
    print(subprocess.run(["jcmd", jp, "VM.flags"], capture_output=True, text=True).stdout, flush=True)
finally:
    w.terminate(); w.wait(timeout=300)
