import json, sys, collections
log, xid_start = sys.argv[1], float(sys.argv[2]); wanted_desc_ms = float(sys.argv[3])
# print jobs/stages of the SQL executions starting within +-5 ms of given offsets
execs={}; stage_info={}; jobs=collections.defaultdict(list)
for line in open(log):
    e=json.loads(line); ev=e["Event"]
    if ev.endswith("SQLExecutionStart"):
        execs[e["executionId"]]=(e["time"], e.get("physicalPlanDescription","")[:0])
    elif ev=="SparkListenerJobStart":
        x=(e.get("Properties") or {}).get("spark.sql.execution.id")
        if x is not None: jobs[int(x)].append((e["Submission Time"], [(s["Stage ID"], s["Stage Name"], s["Number of Tasks"]) for s in e["Stage Infos"]]))
    elif ev=="SparkListenerStageCompleted":
        s=e["Stage Info"]; stage_info[s["Stage ID"]]=(s.get("Submission Time"), s.get("Completion Time"), s["Number of Tasks"], s.get("Failure Reason"))
for x,(t,_) in execs.items():
    if abs((t - xid_start)/1000 - wanted_desc_ms) < 0.006:
        print("execution", x)
        for jt, stages in jobs[x]:
            print(f"  job at +{(jt-t):5.0f} ms")
            for sid, name, nt in stages:
                si=stage_info.get(sid)
                if si and si[0]: print(f"     stage {sid} {name[:60]:60} tasks {si[2]:3} {si[1]-si[0]:5} ms")
                else: print(f"     stage {sid} {name[:60]:60} (skipped)")
