"""A warm `cdc-pipeline watch` (no warm-up) over N more 1,000-message batches of a copy of the small
bench's warehouse (ROOT/local, its stream in ROOT/stream): per batch, its latency, the CPU
seconds of the watch's process tree, and HotSpot's own counts (jstat -class, -compiler:
methods compiled and compile time so far); at the end, the CPU of each JVM thread group
between the third batch and the last. FLIP=2 (dbt threads) through flip_watch.py.

    FLIP=2 python watch_jit.py ROOT N FIRST_BATCH
"""
import json, os, subprocess, sys, time
from pathlib import Path
sys.path.insert(0, "/work/main")
from bench.small import read_until
root = Path(sys.argv[1]); n = int(sys.argv[2]); first = int(sys.argv[3])
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench",
           DBT_PROFILES_DIR="/work/main/profiles", PYTHONUNBUFFERED="1")
inbox = root / "inbox"
import shutil; shutil.rmtree(inbox, ignore_errors=True)
for f in formats: (inbox / f).mkdir(parents=True, exist_ok=True)
w = subprocess.Popen([sys.executable, "/tmp/x/flip_watch.py", "--project-dir", "/work/main", "watch", *[str(inbox / f) for f in formats], "--interval", "0.2", "--settle", "0",
                      "--no-warm-up", "--checks-idle", "100000", "--dbt-arg=--vars", f"--dbt-arg={json.dumps({'cdc_formats': formats})}",
                      "--dbt-arg=--log-path", f"--dbt-arg={root / 'logs'}"],
                     env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
def threads_cpu():
    import glob, re, collections
    out = collections.Counter()
    for pid in os.listdir("/proc"):
        if not pid.isdigit(): continue
        try:
            comm = open(f"/proc/{pid}/comm").read().strip()
        except Exception: continue
        if comm not in ("java", "python", "python3"): continue
        for t in glob.glob(f"/proc/{pid}/task/*"):
            try:
                st = open(t + "/stat").read(); name = open(t + "/comm").read().strip()
            except Exception: continue
            f = st[st.rindex(")") + 2:].split()
            name = re.sub(r"[0-9#]+", "N", name)
            out[comm + ":" + name] += (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    return out
snap = {}
def cpu(pid):
    import subprocess as sp
    out = sp.run(["ps", "-o", "pid=,ppid=,cputimes=", "-e"], capture_output=True, text=True).stdout.split()
    rows = [(int(out[i]), int(out[i+1]), int(out[i+2])) for i in range(0, len(out), 3)]
    kids = {pid}; changed = True
    while changed:
        changed = False
        for a, b, c in rows:
            if b in kids and a not in kids: kids.add(a); changed = True
    return float(sum(c for a, b, c in rows if a in kids))
try:
    read_until(w, "watching")
    for i in range(n):
        source = root / "stream" / f"batch-{first + i}"
        t = time.perf_counter()
        for f in formats:
            for p in (source / f).rglob("*.jsonl"):
                p.rename(inbox / f / f"r{first+i}-{p.parent.name}-{p.name}")
        c0 = cpu(w.pid)
        th = read_until(w, "threads=").strip()
        line = read_until(w, f"batch {1 + i}:")
        c1 = cpu(w.pid)
        if i in (2, n - 1): snap[i] = threads_cpu()
        jp = subprocess.run(["pgrep", "-P", str(w.pid), "java"], capture_output=True, text=True).stdout.split()
        if jp:
            for opt in ("-class", "-compiler"):
                r = subprocess.run(["/usr/lib/jvm/java-17-openjdk-amd64/bin/jstat", opt, jp[0]], capture_output=True, text=True).stdout.strip().splitlines()
                print("   ", opt, r[-1] if r else "", flush=True)
        print(f"batch {first+i} {th}: {time.perf_counter() - t:.2f} s cpu {c1-c0:.1f} | {line.strip()[:160]}", flush=True)
    if len(snap) == 2:
        d = snap[n - 1] - snap[2]
        for k, v in d.most_common(30): print(f"{v:8.1f} {k}")
finally:
    w.terminate(); w.wait(timeout=300)
