"""The SQL statements of a Spark event log, one line each: what it wrote (or its plan's top
node), wall time, jobs, stages, tasks and the stages' summed time.

    python event_log_statements.py EVENTLOG [SUBSTRING [LAST_N]]

SUBSTRING keeps the statements whose label contains it (e.g. `INSERT` or a model's name).
The event log comes from a run with PYSPARK_SUBMIT_ARGS="--conf spark.eventLog.enabled=true
--conf spark.eventLog.dir=file:///DIR --conf spark.eventLog.compress=false pyspark-shell".
"""

import collections
import json
import re
import sys

WRITE = re.compile(r"InsertIntoHadoopFsRelationCommand\n(?:Input: .*\n)?Arguments: [^,\n]*?\.db/(\w+)")


def main(path: str, want: str | None, last: int) -> None:
    statements, jobs, stages = {}, {}, {}
    for line in open(path, encoding="utf-8"):
        event = json.loads(line)
        kind = event["Event"]
        if kind.endswith("SQLExecutionStart"):
            plan = event.get("physicalPlanDescription", "")
            written = WRITE.search(plan)
            top = plan.split("\n")[1] if "\n" in plan else plan
            statements[int(event["executionId"])] = {
                "label": f"INSERT {written.group(1)}" if written else top[:50], "start": int(event["time"])}
        elif kind.endswith("SQLExecutionEnd") and int(event["executionId"]) in statements:
            statements[int(event["executionId"])]["end"] = int(event["time"])
        elif kind == "SparkListenerJobStart":
            execution = event.get("Properties", {}).get("spark.sql.execution.id")
            jobs[event["Job ID"]] = (int(execution) if execution else None, [s["Stage ID"] for s in event["Stage Infos"]])
        elif kind == "SparkListenerStageCompleted" and "Submission Time" in event["Stage Info"]:
            info = event["Stage Info"]
            stages[info["Stage ID"]] = (info["Number of Tasks"], info["Completion Time"] - info["Submission Time"])
    jobs_of = collections.defaultdict(list)
    for job, (execution, _) in jobs.items():
        jobs_of[execution].append(job)
    rows = []
    for execution, statement in sorted(statements.items()):
        if want and want not in statement["label"]:
            continue
        ran = [s for job in jobs_of.get(execution, []) for s in jobs[job][1] if s in stages]
        rows.append(f"{execution:5d} {statement['label']:<42} wall {statement.get('end', statement['start']) - statement['start']:5d} ms"
                    f"  jobs {len(jobs_of.get(execution, [])):2d}  stages {len(ran):2d}"
                    f"  tasks {sum(stages[s][0] for s in ran):3d}  stage ms {sum(stages[s][1] for s in ran):5d}")
    print("\n".join(rows[-last:] if last else rows))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
