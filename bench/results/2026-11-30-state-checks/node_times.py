"""Per-node seconds of one dbt invocation in a dbt.log (default the last).

    python bench/results/2026-11-30-state-checks/node_times.py LOGS/dbt.log [INDEX] [TOP]

INDEX picks the invocation (-1 the last, -2 the one before); TOP is how many nodes to list.
"""

from __future__ import annotations

import datetime as dt
import re
import sys

STAMP = re.compile(r"(\d\d:\d\d:\d\d\.\d+)")


def stamp(line: str) -> dt.datetime | None:
    found = STAMP.search(line)
    return dt.datetime.strptime(found.group(1), "%H:%M:%S.%f") if found else None


def main() -> None:
    lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
    index = int(sys.argv[2]) if len(sys.argv) > 2 else -1
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    starts = [i for i, line in enumerate(lines) if "Running with dbt" in line]
    chosen = index % len(starts)
    invocation = lines[starts[chosen]:(starts + [len(lines)])[chosen + 1]]
    began, seconds = {}, {}
    for line in invocation:
        if found := re.search(r"Began running node (\S+)", line):
            began[found.group(1)] = stamp(line)
        elif found := re.search(r"Finished running node (\S+)", line):
            seconds[found.group(1)] = (stamp(line) - began[found.group(1)]).total_seconds()
    stamped = [stamp(line) for line in invocation if stamp(line)]
    models = sum(v for k, v in seconds.items() if k.startswith("model."))
    tests = sum(v for k, v in seconds.items() if k.startswith("test."))
    print(f"invocation {(stamped[-1] - stamped[0]).total_seconds():.2f} s: models {models:.2f} s, data tests {tests:.2f} s")
    for node, value in sorted(seconds.items(), key=lambda item: -item[1])[:top]:
        print(f"{value:6.2f}  {node}")


if __name__ == "__main__":
    main()
