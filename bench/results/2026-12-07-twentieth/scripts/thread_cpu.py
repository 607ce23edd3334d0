"""Sample the CPU of every thread of the newest java process (child of PPID) until it exits; print by category."""
import os, sys, time, re, collections, subprocess
parent = sys.argv[1]
def find():
    out = subprocess.run(["pgrep", "-f", "java.*org.apache.spark"], capture_output=True, text=True).stdout.split()
    return out[-1] if out else None
pid = None
while pid is None:
    pid = find(); time.sleep(0.5)
hz = os.sysconf("SC_CLK_TCK"); last = {}
marks = []
while os.path.exists(f"/proc/{pid}"):
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                comm = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
                st = open(f"/proc/{pid}/task/{tid}/stat").read().rsplit(")", 1)[1].split()
                last[tid] = (comm, (int(st[11]) + int(st[12])) / hz)
            except Exception: pass
    except FileNotFoundError: break
    if os.path.exists("/tmp/exp/MARK"):
        name = open("/tmp/exp/MARK").read().strip(); os.remove("/tmp/exp/MARK")
        marks.append((name, dict(last)))
    time.sleep(0.5)
def cat(c):
    for k, p in [("C2", r"^C2 Compiler"), ("C1", r"^C1 Compiler"), ("GC", r"^GC Thread|^VM Thread|ParGC"), ("tasks", r"^Executor task"),
                 ("sweeper", r"Sweeper"), ("dag", r"dag-scheduler"), ("listener", r"listener|spark-listener"), ("py4j/driver", r"^Thread-|^py4j|^main$"),
                 ("shuffle/netty", r"netty|shuffle|rpc|dispatcher"), ("parquet/io", r"parquet|hive|derby")]:
        if re.search(p, c, re.I): return k
    return "other:" + re.sub(r"[-\d]+$", "", c)
tot = collections.Counter()
for comm, cpu in last.values(): tot[cat(comm)] += cpu
print("total", round(sum(tot.values()), 1), {k: round(v, 1) for k, v in tot.most_common()})
