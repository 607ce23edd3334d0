"""Snapshot the tables, run a dbt command, snapshot again: one process, one Spark start.

Used by the kill tests (test_kill_and_rerun.py, test_watch.py) to compare what a repaired
run left with a full rebuild of the same landings. Run as a script (the tests start it with
the environment of their own warehouse)::

    python rebuild_snapshots.py OUT.json SQL DBT_ARG...

It runs ``cdc-pipeline query SQL``, ``cdc-pipeline dbt DBT_ARG...`` and the query again in
this process (the CLI's own functions; the Spark session started by the first query is
reused), and writes ``{"before": [...], "after": [...]}``: each the query's JSON lines,
sorted. Three process starts of the CLI cost about a minute on 2 busy cores; this costs one.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path


def query_lines(main, sql: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["query", sql])
    if status != 0:
        raise SystemExit(f"query failed with status {status}")
    return sorted(line for line in out.getvalue().splitlines() if line.startswith("{"))


def main(argv: list[str]) -> int:
    out_path, sql, *dbt_args = argv
    from python_udfs.pipeline.cli import main as cli_main

    before = query_lines(cli_main, sql)
    status = cli_main(["dbt", *dbt_args])
    if status != 0:
        print(f"dbt {' '.join(dbt_args)} failed with status {status}", file=sys.stderr)
        return status
    after = query_lines(cli_main, sql)
    Path(out_path).write_text(json.dumps({"before": before, "after": after}), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
