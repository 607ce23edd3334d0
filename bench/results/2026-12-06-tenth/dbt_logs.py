"""Where the test suite's dbt time goes, read from every test pipeline's logs/dbt.log.

    python dbt_logs.py by-command FOLDER            invocations per dbt command: wall seconds,
                                                    seconds of their model and data-test nodes
    python dbt_logs.py checks-between-builds FOLDER the data tests of builds that another build
                                                    of the same pipeline followed, per pipeline
    python dbt_logs.py by-node FOLDER [N]           the N heaviest nodes over every build

FOLDER is pytest's base temp of a run (each pipeline's work dir holds logs/dbt.log). Only the
in-process pipelines: the CLI subprocesses log elsewhere. A node's time is from dbt's "Began
running node" to its "Finished running node" line.
"""

from __future__ import annotations

import collections
import glob
import os
import re
import sys

COMMAND = re.compile(r"Command `(?:cli )?([\w-]+)` \w+ at [\d:.]+ after ([\d.]+) seconds")
BEGAN = re.compile(r"(\d\d:\d\d:\d\d\.\d+) .*Began running node (\S+)")
FINISHED = re.compile(r"(\d\d:\d\d:\d\d\.\d+) .*Finished running node (\S+)")


def seconds(clock: str) -> float:
    hours, minutes, rest = clock.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(rest)


def invocations(folder: str):
    """Per pipeline (its work dir's name), its invocations in order: (command, wall seconds,
    {node id: seconds})."""
    logs = {os.path.realpath(p) for p in glob.glob(folder + "/**/logs/dbt.log", recursive=True)}
    for path in sorted(logs):
        text = re.sub(r"\x1b\[[0-9;]*m", "", open(path, encoding="utf-8", errors="replace").read())
        runs = []
        for part in text.split("Running with dbt=")[1:]:
            command = COMMAND.search(part)
            if not command:
                continue
            began, nodes = {}, {}
            for line in part.splitlines():
                if match := BEGAN.match(line):
                    began[match.group(2)] = seconds(match.group(1))
                elif (match := FINISHED.match(line)) and match.group(2) in began:
                    nodes[match.group(2)] = seconds(match.group(1)) - began.pop(match.group(2))
            runs.append((command.group(1), float(command.group(2)), nodes))
        yield path.split("/")[-3], runs


def kind_seconds(nodes: dict, kind: str) -> float:
    return sum(s for node, s in nodes.items() if node.startswith(kind + "."))


def by_command(folder: str) -> None:
    totals = {}
    for _, runs in invocations(folder):
        for command, wall, nodes in runs:
            total = totals.setdefault(command, [0, 0.0, 0.0, 0.0])
            total[0] += 1
            total[1] += wall
            total[2] += kind_seconds(nodes, "model")
            total[3] += kind_seconds(nodes, "test") + kind_seconds(nodes, "unit_test")
    print(f"{'cmd':14s} {'n':>4s} {'wall':>8s} {'models':>8s} {'tests':>8s}")
    for command, (n, wall, models, tests) in sorted(totals.items(), key=lambda item: -item[1][1]):
        print(f"{command:14s} {n:4d} {wall:8.1f} {models:8.1f} {tests:8.1f}")


def checks_between_builds(folder: str) -> None:
    between = last = 0.0
    n_between = n_last = pipelines = 0
    per_prefix = collections.Counter()
    for name, runs in invocations(folder):
        pipelines += 1
        builds = [kind_seconds(nodes, "test") for command, _, nodes in runs if command == "build"]
        for index, tests in enumerate(builds):
            if index < len(builds) - 1:
                between, n_between = between + tests, n_between + 1
                per_prefix[re.sub(r"_[0-9a-f]{7}$", "", name)] += tests
            else:
                last, n_last = last + tests, n_last + 1
    print("pipelines", pipelines, "intermediate builds", n_between, "test s", round(between, 1),
          "last builds", n_last, "test s", round(last, 1))
    for prefix, tests in per_prefix.most_common():
        if tests:
            print(f"{tests:7.1f} {prefix}")


def by_node(folder: str, count: int) -> None:
    totals = {}
    for _, runs in invocations(folder):
        for command, _, nodes in runs:
            if command != "build":
                continue
            for node, node_seconds in nodes.items():
                parts = node.split(".")
                key = parts[0] + "." + re.sub(r"\.[0-9a-f]{10}$", "", parts[2]) if len(parts) > 2 else node
                total = totals.setdefault(key, [0, 0.0])
                total[0] += 1
                total[1] += node_seconds
    print("total", round(sum(t[1] for t in totals.values()), 1))
    for key, (n, node_seconds) in sorted(totals.items(), key=lambda item: -item[1][1])[:count]:
        print(f"{node_seconds:8.1f} {n:4d} {node_seconds / n:6.2f} {key[:110]}")


if __name__ == "__main__":
    report, folder = sys.argv[1], sys.argv[2]
    if report == "by-command":
        by_command(folder)
    elif report == "checks-between-builds":
        checks_between_builds(folder)
    elif report == "by-node":
        by_node(folder, int(sys.argv[3]) if len(sys.argv) > 3 else 60)
    else:
        sys.exit(__doc__)
