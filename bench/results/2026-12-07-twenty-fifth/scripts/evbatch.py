"""Every SQL execution of the last LAST seconds of an event log: start offset, duration, jobs,
tasks, the tasks' summed run time, rows read, and what it is (the insert's target table, else the
first plan line). Usage: evbatch.py EVENTLOG SECONDS, or evbatch.py EVENTLOG 0 START_MS END_MS for
the executions started in a window of epoch milliseconds (a benchmark step's `window_ms`), each
listed then."""
import json, sys, re, collections
log, last = sys.argv[1], float(sys.argv[2])
ex = {}; stage_x = {}; T = 0
for line in open(log):
    e = json.loads(line); ev = e["Event"]
    t = e.get("time") or e.get("Submission Time") or 0
    T = max(T, t if isinstance(t, (int, float)) else 0)
    if ev.endswith("SQLExecutionStart"):
        p = e.get("physicalPlanDescription", "")
        m = re.search(r"InsertIntoHadoopFsRelationCommand \S+/([a-z_0-9]+\.db/[a-z_0-9]+)", p)
        what = "insert " + m.group(1) if m else p.split("\n")[1][:80] if "\n" in p else p[:80]
        ex[e["executionId"]] = dict(start=e["time"], end=None, jobs=0, tasks=0, run=0, rows=0, what=what)
    elif ev.endswith("SQLExecutionEnd") and e["executionId"] in ex:
        ex[e["executionId"]]["end"] = e["time"]
    elif ev == "SparkListenerJobStart":
        x = (e.get("Properties") or {}).get("spark.sql.execution.id")
        if x is not None and int(x) in ex:
            ex[int(x)]["jobs"] += 1
            for s in e["Stage IDs"]: stage_x[s] = int(x)
    elif ev == "SparkListenerTaskEnd" and e["Stage ID"] in stage_x:
        x = ex[stage_x[e["Stage ID"]]]; m = e.get("Task Metrics") or {}
        x["tasks"] += 1; x["run"] += m.get("Executor Run Time", 0); x["rows"] += (m.get("Input Metrics") or {}).get("Records Read", 0)
window = len(sys.argv) > 3
a, z = (float(sys.argv[3]), float(sys.argv[4])) if window else (T - last * 1000, T)
tot = collections.Counter()
for i, x in sorted(ex.items()):
    if x["start"] < a or x["start"] > z: continue
    d = (x["end"] or x["start"]) - x["start"]
    tot["n"] += 1; tot["jobs"] += x["jobs"]; tot["tasks"] += x["tasks"]; tot["run"] += x["run"]
    if window or d >= 50 or x["tasks"] >= 5:
        print(f"{(x['start']-a)/1000:6.2f} {d:5.0f} ms j{x['jobs']:2} t{x['tasks']:3} run {x['run']:5} ms rows {x['rows']:7}  {x['what'][:70]}")
print(dict(tot))
