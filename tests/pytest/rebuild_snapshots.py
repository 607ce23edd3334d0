"""Snapshot the tables, run a dbt command, snapshot again: one process, one Spark start.

Used by the kill tests (test_kill_and_rerun.py, test_watch.py) to compare what a repaired
run left with a full rebuild of the same landings. Run as a script (the tests start it with
the environment of their own warehouse)::

    python rebuild_snapshots.py OUT.json SQL [--first CLI_ARGS_JSON] DBT_ARG...

It runs ``cdc-pipeline query SQL``, ``cdc-pipeline dbt DBT_ARG...`` and the query again in
this process (the CLI's own functions; the Spark session started by the first query is
reused), and writes ``{"before": [...], "after": [...], "first_output": ...}``: each the
query's JSON lines, sorted. With ``--first``, the CLI command given as a JSON list (the run
that repairs what a killed one left, e.g. ``["dbt", "build"]``) runs before everything
else, in the same process; it must succeed, and its printed output is kept. Each process
start of the CLI costs about a minute of CPU on 2 busy cores; this costs one.
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
    first: list[str] | None = None
    if dbt_args[:1] == ["--first"]:
        first, dbt_args = json.loads(dbt_args[1]), dbt_args[2:]
    from python_udfs.pipeline.cli import main as cli_main

    first_output = ""
    if first is not None:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = cli_main(first)
        first_output = out.getvalue()
        print(first_output, end="")
        if status != 0:
            print(f"{' '.join(first)} failed with status {status}", file=sys.stderr)
            return status
    before = query_lines(cli_main, sql)
    status = cli_main(["dbt", *dbt_args])
    if status != 0:
        print(f"dbt {' '.join(dbt_args)} failed with status {status}", file=sys.stderr)
        return status
    after = query_lines(cli_main, sql)
    Path(out_path).write_text(json.dumps({"before": before, "after": after, "first_output": first_output}), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
