import re
import json, sys, collections
path = sys.argv[1]
execs = {}
stage_exec = {}
job_exec = {}
stage_metrics = collections.defaultdict(lambda: [0, 0, 0, 0])
for line in open(path):
    e = json.loads(line)
    ev = e["Event"]
    if ev.endswith("SQLExecutionStart"):
        pd=e.get("physicalPlanDescription","");m=re.search(r"\.db/(\w+)",pd);execs[e["executionId"]] = {"desc": (m.group(1) if m else e.get("description",""))[:200], "start": e["time"], "rec": 0, "bytes": 0, "stages": 0}
    elif ev.endswith("SQLExecutionEnd"):
        if e["executionId"] in execs:
            execs[e["executionId"]]["end"] = e["time"]
    elif ev == "SparkListenerJobStart":
        xid = e.get("Properties", {}).get("spark.sql.execution.id")
        if xid is not None:
            for s in e["Stage IDs"]:
                stage_exec[s] = int(xid)
    elif ev == "SparkListenerStageCompleted":
        info = e["Stage Info"]
        sid = info["Stage ID"]
        xid = stage_exec.get(sid)
        if xid in execs:
            execs[xid]["stages"] += 1
            for acc in info.get("Accumulables", []):
                n = acc.get("Name", "")
                if n == "internal.metrics.input.recordsRead":
                    execs[xid]["rec"] += int(acc["Value"])
                if n == "internal.metrics.input.bytesRead":
                    execs[xid]["bytes"] += int(acc["Value"])
ids = sorted(execs)
tail = int(sys.argv[2]) if len(sys.argv) > 2 else 60
for x in ids[-tail:]:
    v = execs[x]
    d = (v.get("end", v["start"]) - v["start"]) / 1000
    if d < 0.2: continue
    desc = v["desc"]
    i = desc.find("insert")
    print(f"{x:5d} {d:7.2f}s st={v['stages']:3d} rec={v['rec']:>10,d} MB={v['bytes']/1e6:8.1f} {desc[i if i>=0 else 0:][:110]}")
