"""Per time window (dbt invocations from dbt.log), from a Spark event log: SQL executions,
jobs, stages, tasks, and the tasks' summed run/CPU/deserialize times."""
import json, sys, re, datetime, collections
log, dbtlog = sys.argv[1], sys.argv[2]
day = sys.argv[3]  # YYYY-MM-DD
wins = []
cur = None
for line in open(dbtlog, errors="replace"):
    m = re.match(r"^\x1b\[0m(\d\d:\d\d:\d\d\.\d+) .*Running with dbt", line)
    if m: cur = m.group(1)
    m = re.match(r"^\x1b\[0m(\d\d:\d\d:\d\d\.\d+) .*Command `cli build` succeeded .* after ([\d.]+) seconds", line)
    if m and cur:
        f = lambda s: datetime.datetime.strptime(day + " " + s, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc).timestamp() * 1000
        wins.append((f(cur), f(m.group(1)), float(m.group(2)))); cur = None
stats = [collections.Counter() for _ in wins]
def win(t):
    for i, (a, b, _) in enumerate(wins):
        if a <= t <= b: return i
for line in open(log):
    e = json.loads(line); ev = e["Event"]
    if ev == "SparkListenerTaskEnd":
        ti = e["Task Info"]; i = win(ti["Launch Time"])
        if i is None: continue
        tm = e.get("Task Metrics") or {}
        s = stats[i]; s["tasks"] += 1
        s["run_ms"] += tm.get("Executor Run Time", 0); s["cpu_ms"] += tm.get("Executor CPU Time", 0) / 1e6
        s["deser_ms"] += tm.get("Executor Deserialize Time", 0); s["deser_cpu_ms"] += tm.get("Executor Deserialize CPU Time", 0) / 1e6
        s["wall_ms"] += ti["Finish Time"] - ti["Launch Time"]
    elif ev == "SparkListenerJobStart":
        i = win(e["Submission Time"]);
        if i is not None: stats[i]["jobs"] += 1; stats[i]["stages"] += len(e["Stage Infos"])
    elif ev == "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart":
        i = win(e["time"])
        if i is not None: stats[i]["sql"] += 1
for (a, b, secs), s in zip(wins, stats):
    print(f"build {secs:5.2f} s: sql {s['sql']:4} jobs {s['jobs']:4} stages {s['stages']:4} tasks {s['tasks']:5}  task wall {s['wall_ms']/1000:6.2f} s run {s['run_ms']/1000:6.2f} cpu {s['cpu_ms']/1000:6.2f} deser {s['deser_ms']/1000:5.2f} (cpu {s['deser_cpu_ms']/1000:5.2f})")
