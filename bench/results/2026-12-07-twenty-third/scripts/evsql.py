import json, sys, re, datetime, collections
log, a, b = sys.argv[1], sys.argv[2], sys.argv[3]   # epoch ms window
a=float(a); b=float(b)
execs = {}; jobs = {}; stage_tasks = collections.Counter(); stage_job = {}; job_exec = {}
for line in open(log):
    e = json.loads(line); ev = e["Event"]
    if ev.endswith("SparkListenerSQLExecutionStart") and a <= e["time"] <= b:
        execs[e["executionId"]] = {"start": e["time"], "desc": e.get("description","")[:110].replace("\n"," "), "jobs": 0, "stages": 0, "tasks": 0, "end": None, "cpu":0.0}
    elif ev.endswith("SparkListenerSQLExecutionEnd") and e["executionId"] in execs:
        execs[e["executionId"]]["end"] = e["time"]
    elif ev == "SparkListenerJobStart":
        xid = (e.get("Properties") or {}).get("spark.sql.execution.id")
        if xid is not None and int(xid) in execs:
            x = execs[int(xid)]; x["jobs"] += 1; x["stages"] += len(e["Stage Infos"])
            for s in e["Stage IDs"]: stage_job[s] = int(xid)
    elif ev == "SparkListenerTaskEnd":
        x = stage_job.get(e["Stage ID"])
        if x is not None:
            execs[x]["tasks"] += 1; execs[x]["cpu"] += (e.get("Task Metrics") or {}).get("Executor CPU Time",0)/1e6
tot = collections.Counter()
for xid, x in sorted(execs.items()):
    d = (x["end"] or x["start"]) - x["start"]
    tot["ms"] += d; tot["jobs"] += x["jobs"]; tot["tasks"] += x["tasks"]
    print(f"{(x['start']-a)/1000:6.2f} {d:6.0f} ms j{x['jobs']:2} s{x['stages']:2} t{x['tasks']:3} cpu{x['cpu']:6.0f}  {x['desc']}")
print(tot)
