"""The executions of a benchmark run that bench.profile files under "(metadata and small
queries)", by step, longest first (README here).

    .venv/bin/python bench/results/2026-11-30-new-machine/small_queries.py <work>/runs/peer-debezium
"""

import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench.profile import _owner, read_events  # noqa: E402


def main(run: Path) -> None:
    windows = json.loads((run / "result.json").read_text())["steps"]
    executions = {}
    for event in read_events(run / "eventlog"):
        kind = event.get("Event", "")
        if kind.endswith("SQLExecutionStart"):
            root = event.get("rootExecutionId", event["executionId"])
            executions[event["executionId"]] = {
                "owner": _owner(event), "start": event["time"], "root": root in (None, -1, event["executionId"]),
                "description": (event.get("description") or "").replace("\n", " ")[:230],
            }
        elif kind.endswith("SQLExecutionEnd") and event["executionId"] in executions:
            executions[event["executionId"]]["end"] = event["time"]

    def step(time_ms: int) -> str:
        for name, figures in windows.items():
            start, end = figures["window_ms"]
            if start <= time_ms <= end:
                return name
        return "(after the build: verify)"

    rows = [(e["end"] - e["start"], step(e["start"]), e["description"]) for e in executions.values()
            if e["owner"] == "(metadata and small queries)" and e.get("end") and e["root"]]
    print(f"{sum(r[0] for r in rows) / 1000:.1f} s in {len(rows)} executions")
    by_step = defaultdict(float)
    for ms, name, _ in rows:
        by_step[name] += ms / 1000
    print({name: round(seconds, 1) for name, seconds in by_step.items()})
    for ms, name, description in sorted(rows, reverse=True)[:25]:
        print(f"{ms / 1000:6.2f} {name:10} {description}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
