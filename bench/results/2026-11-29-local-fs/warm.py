"""Warm watch: restore template2, watch an inbox, move batches 2..6 in one by one; after each
'batch N:' line copy run_results.json -> rr_N.json. Usage: warm.py TAG [PROJ]"""
import json, os, select, shutil, subprocess, sys, time
from pathlib import Path
tag = sys.argv[1]; P = Path(sys.argv[2] if len(sys.argv) > 2 else "/work/main")
AB = Path("/work/exp/s28/ab"); S = Path("/work/exp/s29/stream")
out = Path("/work/exp/s29/run") / tag; shutil.rmtree(out, ignore_errors=True); out.mkdir(parents=True)
live = AB / "live"; shutil.rmtree(live, ignore_errors=True); live.mkdir()
shutil.copytree(AB / "template2", live / "local", symlinks=True)
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
inbox = out / "inbox"
for f in formats: (inbox / f).mkdir(parents=True)
env = dict(os.environ, CDC_LOCAL_DIR=str(live / "local"), CDC_SCHEMA="bench", DBT_PROFILES_DIR=os.environ.get("PROF", str(P / "profiles")), PYTHONUNBUFFERED="1")
cmd = [str(P / ".venv/bin/python"), "-m", "python_udfs.pipeline.cli", "--project-dir", str(P), "watch",
       *[str(inbox / f) for f in formats], "--interval", "0.2", "--settle", "0",
       "--dbt-arg=--vars", "--dbt-arg=" + (AB / "vars.json").read_text().strip(),
       "--dbt-arg=--target-path", f"--dbt-arg={out}/target", "--dbt-arg=--log-path", f"--dbt-arg={out}/logs"]
w = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
log = open(out / "watch.log", "w")
def until(text):
    while True:
        r, _, _ = select.select([w.stdout], [], [], 1.0)
        if r:
            line = w.stdout.readline(); log.write(line); log.flush()
            if text in line: return line
            if not line and w.poll() is not None: raise SystemExit("died")
until("batch 1:")
shutil.copy(out / "target/run_results.json", out / "rr_1.json")
import glob
def cpu(pid):
    f=open(f"/proc/{pid}/stat").read().rsplit(")",1)[1].split()
    return (int(f[11])+int(f[12]))/os.sysconf("SC_CLK_TCK")
def procs():
    py=w.pid; java=None
    for p in glob.glob("/proc/[0-9]*"):
        try:
            st=open(p+"/stat").read().rsplit(")",1)[1].split()
            if int(st[1])==py and "java" in open(p+"/cmdline").read(): java=int(p.split("/")[-1])
        except Exception: pass
    return py, java
PY, JAVA = procs()
cpus=[]
lat = []
for i, b in enumerate(range(2, int(os.environ.get("LAST", "9")))):
    t = time.perf_counter(); c0=(cpu(PY), cpu(JAVA))
    for f in formats:
        for p in (S / f"batch-{b}" / f).rglob("*.jsonl"):
            tmp = out / "stage" / f"b{b}-{p.parent.name}-{p.name}"; tmp.parent.mkdir(exist_ok=True)
            shutil.copy(p, tmp)
            os.rename(tmp, inbox / f / tmp.name)
    line = until(f"batch {2 + i}:")
    lat.append(round(time.perf_counter() - t, 2)); c1=(cpu(PY), cpu(JAVA)); cpus.append((round(c1[0]-c0[0],1), round(c1[1]-c0[1],1)))
    print(line.strip(), "cpu python/java", cpus[-1], flush=True)
    shutil.copy(out / "target/run_results.json", out / f"rr_{2+i}.json")
w.terminate(); w.wait(300)
print("latencies", lat)
json.dump(lat, open(out / "lat.json", "w"))
