"""Profile of a benchmark run from Spark's event log: where the time and the bytes went.

    .venv/bin/python -m bench.profile bench/work/runs/main/eventlog

Per dbt model (dbt's query comment names the node) and per other step: wall time of its SQL
executions, executor run / CPU / GC time, input, shuffle written and read, spill, and the size
of its largest physical plan (nodes: Spark plans, and re-plans between adaptive stages, a
plan in time that grows with it; a CTE used n times is n copies); plus the stages that took
the most executor time. This is the measured profile the summary cites.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

METRICS = {
    "internal.metrics.executorRunTime": "executor_run_ms",
    "internal.metrics.executorCpuTime": "executor_cpu_ns",
    "internal.metrics.jvmGCTime": "gc_ms",
    "internal.metrics.input.bytesRead": "input_bytes",
    "internal.metrics.shuffle.write.bytesWritten": "shuffle_write_bytes",
    "internal.metrics.shuffle.read.localBytesRead": "shuffle_read_bytes",
    "internal.metrics.shuffle.read.remoteBytesRead": "shuffle_read_bytes",
    "internal.metrics.memoryBytesSpilled": "spill_memory_bytes",
    "internal.metrics.diskBytesSpilled": "spill_disk_bytes",
    "internal.metrics.output.bytesWritten": "output_bytes",
}
NODE = re.compile(r'"node_id":\s*"(model|test|operation)\.[^.]+\.([^"]+)"')
PLAN_NODES = re.compile(r"^\S.*? \((\d+)\)$", re.M)  # the top node's number is the plan's size


WRITE = re.compile(
    r"InsertIntoHadoopFsRelationCommand\n(?:Input: .*\n)?Arguments: [^,\n]*?\.db/(\w+)"
    r"|CreateDataSourceTableAsSelectCommand\nArguments: `spark_catalog`\.`\w+`\.`(\w+)`"
)


def _owner(event: dict) -> str:
    """The table an execution writes (a dbt model, a landing table), else what it is."""
    plan = event.get("physicalPlanDescription", "") or ""
    match = NODE.search(event.get("description", "") or "")
    # a model by its name; a data test or hook by its kind and name (when Spark's description
    # carries the node id: dbt's query comment reaches it for models, not for data tests)
    if match:
        return match.group(2) if match.group(1) == "model" else f"{match.group(1)} {match.group(2)[:60]}"
    head = plan.split("\n", 3)[:3]
    if any("noop-table" in line for line in head):
        return "floor / udf (noop write)"
    if any("InsertIntoHadoopFsRelationCommand" in line or "CreateDataSourceTableAsSelectCommand" in line
           for line in head):
        match = WRITE.search(plan)
        if match:
            table = match.group(1) or match.group(2)
            return "landing" if table.startswith("raw_") else table
    return "(metadata and small queries)"


def _plan_nodes(plan: str) -> int:
    match = PLAN_NODES.search(plan.split("\n", 1)[1] if "\n" in plan else plan)
    return int(match.group(1)) if match else 0


def _step(time_ms: int, windows: dict) -> str:
    for step, (start, end) in windows.items():
        if start <= time_ms <= end:
            return step
    return "other"


def read_events(event_dir: Path):
    """Every event of a Spark event log folder (its files in name order), parsed."""
    files = [p for p in Path(event_dir).rglob("*") if p.is_file() and not p.name.startswith((".", "appstatus"))]
    for path in sorted(files):
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                try:
                    yield json.loads(line)
                except ValueError:
                    continue


def summarize(event_dir: Path, windows: dict | None = None, top: int = 8) -> dict:
    """``windows``: step -> (start ms, end ms) epoch; executions are grouped per step too."""
    windows = windows or {}
    executions: dict[int, dict] = {}
    stage_execution: dict[int, int] = {}
    stages: list[dict] = []
    for event in read_events(event_dir):
        kind = event.get("Event", "")
        if kind.endswith("SQLExecutionStart"):
            root = event.get("rootExecutionId", event["executionId"])
            executions[event["executionId"]] = {
                "root": root in (None, -1, event["executionId"]),
                "owner": _owner(event),
                "start": event["time"],
                "end": None,
                "plan_nodes": _plan_nodes(event.get("physicalPlanDescription") or ""),
            }
        elif kind.endswith("SQLExecutionEnd"):
            if event["executionId"] in executions:
                executions[event["executionId"]]["end"] = event["time"]
        elif kind == "SparkListenerJobStart":
            execution = (event.get("Properties") or {}).get("spark.sql.execution.id")
            if execution is not None:
                for stage_id in event.get("Stage IDs", []):
                    stage_execution[stage_id] = int(execution)
        elif kind == "SparkListenerStageCompleted":
            info = event["Stage Info"]
            figures = defaultdict(int)
            for accumulable in info.get("Accumulables", []):
                name = METRICS.get(accumulable.get("Name"))
                if name:
                    figures[name] += int(accumulable.get("Value") or 0)
            stages.append({
                "stage": info["Stage ID"],
                "name": info.get("Stage Name", ""),
                "tasks": info.get("Number of Tasks"),
                "wall_ms": (info.get("Completion Time") or 0) - (info.get("Submission Time") or 0),
                **figures,
            })
    per_owner: dict[str, dict] = defaultdict(lambda: defaultdict(int))
    for execution in executions.values():
        execution["owner"] = f"{_step(execution['start'], windows)}: {execution['owner']}"
        if execution["end"] is not None and execution["root"]:  # a nested execution is inside its root's time
            per_owner[execution["owner"]]["sql_wall_ms"] += execution["end"] - execution["start"]
        bucket = per_owner[execution["owner"]]
        bucket["plan_nodes"] = max(bucket["plan_nodes"], execution["plan_nodes"])
    for stage in stages:
        execution = executions.get(stage_execution.get(stage["stage"], -1))
        owner = execution["owner"] if execution else "(no sql)"
        stage["owner"] = owner
        bucket = per_owner[owner]
        bucket["stages"] += 1
        for key in ("executor_run_ms", "executor_cpu_ns", "gc_ms", "input_bytes", "shuffle_write_bytes",
                    "shuffle_read_bytes", "spill_memory_bytes", "spill_disk_bytes", "output_bytes"):
            bucket[key] += stage.get(key, 0)
    owners = {
        owner: {
            "sql_wall_s": round(v["sql_wall_ms"] / 1000, 1),
            "stages": v["stages"],
            "plan_nodes": v["plan_nodes"],
            "executor_run_s": round(v["executor_run_ms"] / 1000, 1),
            "executor_cpu_s": round(v["executor_cpu_ns"] / 1e9, 1),
            "gc_s": round(v["gc_ms"] / 1000, 1),
            "input_mib": round(v["input_bytes"] / 2**20, 1),
            "shuffle_write_mib": round(v["shuffle_write_bytes"] / 2**20, 1),
            "shuffle_read_mib": round(v["shuffle_read_bytes"] / 2**20, 1),
            "spill_disk_mib": round(v["spill_disk_bytes"] / 2**20, 1),
            "output_mib": round(v["output_bytes"] / 2**20, 1),
        }
        for owner, v in sorted(per_owner.items(), key=lambda item: -item[1]["sql_wall_ms"])
    }
    steps: dict[str, dict] = defaultdict(lambda: defaultdict(float))
    for owner, v in per_owner.items():
        step = owner.split(": ", 1)[0]
        steps[step]["executor_cpu_s"] += v["executor_cpu_ns"] / 1e9
        steps[step]["executor_run_s"] += v["executor_run_ms"] / 1000
        steps[step]["shuffle_write_mib"] += v["shuffle_write_bytes"] / 2**20
    heaviest = sorted(stages, key=lambda s: -s.get("executor_run_ms", 0))[:top]
    return {
        "step_totals": {k: {m: round(x, 1) for m, x in v.items()} for k, v in steps.items()},
        "by_step": owners,
        "top_stages": [
            {
                "owner": s["owner"], "stage": s["stage"], "name": s["name"][:80], "tasks": s["tasks"],
                "wall_s": round(s["wall_ms"] / 1000, 1),
                "executor_run_s": round(s.get("executor_run_ms", 0) / 1000, 1),
                "shuffle_write_mib": round(s.get("shuffle_write_bytes", 0) / 2**20, 1),
                "shuffle_read_mib": round(s.get("shuffle_read_bytes", 0) / 2**20, 1),
                "spill_disk_mib": round(s.get("spill_disk_bytes", 0) / 2**20, 1),
            }
            for s in heaviest
        ],
    }


if __name__ == "__main__":
    print(json.dumps(summarize(Path(sys.argv[1])), indent=2))
