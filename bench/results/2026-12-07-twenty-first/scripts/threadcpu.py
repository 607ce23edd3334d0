"""Per-thread-group CPU of a JVM (by thread name) from /proc: snapshot and diff."""
import os, re, sys, json, collections
def snap(pid):
    out = collections.Counter()
    tck = os.sysconf("SC_CLK_TCK")
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            name = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            st = open(f"/proc/{pid}/task/{tid}/stat").read()
        except OSError:
            continue
        fields = st.rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / tck
        g = re.sub(r"[-#\s]*\d+$", "", name)
        if name.startswith("Executor task"): g = "tasks"
        out[g] += cpu
    return out
if __name__ == "__main__":
    pid, path = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3:
        before = json.load(open(path)); now = snap(pid)
        d = {k: round(now[k] - before.get(k, 0), 2) for k in now}
        for k, v in sorted(d.items(), key=lambda x: -x[1])[:14]: print(f"{v:8.2f} {k}")
        print(f"{sum(d.values()):8.2f} total")
    else:
        json.dump(snap(pid), open(path, "w"))
