"""The Spark jobs and stages of the last SQL execution inserting into TABLE (event log), with each
stage's duration, tasks, records read and shuffle bytes. Usage: evinsert.py EVENTLOG TABLE [NTH_FROM_END]"""
import json, sys, collections
log, table = sys.argv[1], sys.argv[2]; nth = int(sys.argv[3]) if len(sys.argv) > 3 else 1
execs = []; jobs = collections.defaultdict(list); stages = {}; recs = collections.Counter(); shr = collections.Counter(); shw = collections.Counter(); ends = {}
for line in open(log):
    e = json.loads(line); ev = e["Event"]
    if ev.endswith("SQLExecutionStart"):
        p = e.get("physicalPlanDescription", "")
        if "InsertIntoHadoopFsRelationCommand" in p and table in p.split("\n")[1] if len(p.split("\n")) > 1 else False:
            execs.append((e["executionId"], e["time"]))
        elif "InsertIntoHadoopFsRelationCommand" in p and f"{table}" in p[:2000]:
            execs.append((e["executionId"], e["time"]))
    elif ev.endswith("SQLExecutionEnd"):
        ends[e["executionId"]] = e["time"]
    elif ev == "SparkListenerJobStart":
        x = (e.get("Properties") or {}).get("spark.sql.execution.id")
        if x is not None: jobs[int(x)].append((e["Submission Time"], e["Job ID"], [(s["Stage ID"], s["Stage Name"]) for s in e["Stage Infos"]]))
    elif ev == "SparkListenerStageCompleted":
        s = e["Stage Info"]; stages[s["Stage ID"]] = (s.get("Submission Time"), s.get("Completion Time"), s["Number of Tasks"])
    elif ev == "SparkListenerTaskEnd":
        m = e.get("Task Metrics") or {}
        recs[e["Stage ID"]] += (m.get("Input Metrics") or {}).get("Records Read", 0)
        shr[e["Stage ID"]] += (m.get("Shuffle Read Metrics") or {}).get("Remote Bytes Read", 0) + (m.get("Shuffle Read Metrics") or {}).get("Local Bytes Read", 0)
        shw[e["Stage ID"]] += (m.get("Shuffle Write Metrics") or {}).get("Shuffle Bytes Written", 0)
x, t = execs[-nth]
print(f"execution {x}: {ends.get(x, t) - t} ms")
for jt, jid, ss in jobs[x]:
    print(f"  job {jid} at +{jt - t:5.0f} ms")
    for sid, name in ss:
        si = stages.get(sid)
        if si and si[0]:
            print(f"     stage {sid:5} +{si[0]-t:5.0f} {si[1]-si[0]:5} ms tasks {si[2]:3} rows in {recs[sid]:8} shuffle r/w {shr[sid]//1024:6}/{shw[sid]//1024:6} KiB  {name[:50]}")
