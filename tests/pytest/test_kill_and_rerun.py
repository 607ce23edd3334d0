"""A build killed midway (kill -9 while current_state's files are being written, before the
table exists) is repaired by the next run: the tables equal a full rebuild of the same landings. Runs the real CLI in
subprocesses with their own warehouse, as a user would."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import PROJECT_DIR, subprocess_env

pytestmark = pytest.mark.dbt

CLI = [sys.executable, "-m", "python_udfs.pipeline.cli", "--project-dir", str(PROJECT_DIR)]
REBUILD_SNAPSHOTS = Path(__file__).with_name("rebuild_snapshots.py")
# Only the format the test lands: the other formats' empty models add minutes, not coverage.
DATAWORKS_ONLY = ["--vars", '{"cdc_formats": ["dataworks"]}']
QUERIES = {
    "change_log": "select change_id, operation, row_key, to_json(before) b, to_json(after) a, sort_key from cdc.change_log",
    "current_state": "select table_id, row_key, is_deleted, to_json(row_image) i, last_change_id, sort_key from cdc.current_state",
    "row_history": "select table_id, row_key, change_id, to_json(row_image) i, valid_from, valid_to, is_current from cdc.row_history",
    "schema_changes": "select schema_change_id, operation, ddl_text from cdc.schema_changes",
    "quarantine": "select quarantine_id, reason_code from cdc.quarantine",
}


def run(env, *args, timeout=600):
    result = subprocess.run([*CLI, *args], env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


def snapshot_sql(extra: dict[str, str] | None = None) -> str:
    """All tables (and any `extra` queries) in one query: JSON rows tagged by relation."""
    return " union all ".join(
        f"select '{name}' as relation, to_json(struct(*)) as row from ({query})"
        for name, query in {**QUERIES, **(extra or {})}.items()
    )


def snapshot_rebuild_snapshot(env, tmp_path: Path, *dbt_args: str, extra: dict[str, str] | None = None,
                              first: list[str] | None = None):
    """The tables as they are, then after `cdc-pipeline dbt DBT_ARGS` (a full rebuild): sorted
    JSON lines tagged by relation, both taken in one process (rebuild_snapshots.py), and what
    the CLI command `first` printed when given: it runs before both in the same process (the
    run that repairs what a killed run left)."""
    out = tmp_path / "snapshots.json"
    first_args = ["--first", json.dumps(first)] if first else []
    result = subprocess.run(
        [sys.executable, str(REBUILD_SNAPSHOTS), str(out), snapshot_sql(extra), *first_args, *dbt_args],
        env=env, capture_output=True, text=True, timeout=900, cwd=PROJECT_DIR)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    snapshots = json.loads(out.read_text(encoding="utf-8"))
    return snapshots["before"], snapshots["after"], snapshots["first_output"]


def test_killed_build_is_repaired_by_the_next_run(tmp_path: Path):
    env = subprocess_env(CDC_LOCAL_DIR=str(tmp_path / "local"), CDC_SCHEMA="cdc",
                         DBT_PROFILES_DIR=str(PROJECT_DIR / "profiles"), CDC_SHUFFLE_PARTITIONS="4",
                         DBT_TARGET_PATH=str(tmp_path / "target"), DBT_LOG_PATH=str(tmp_path / "logs"))
    run(env, "land", "--format", "dataworks", str(PROJECT_DIR / "samples" / "dataworks"))

    build = subprocess.Popen([*CLI, "dbt", "build", *DATAWORKS_ONLY, "--target-path", str(tmp_path / "target")],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
    # Kill while CREATE TABLE AS is writing current_state's files (its stored layers' staging
    # folder exists): the files are there, the table is not yet registered in the metastore.
    location = tmp_path / "local" / "warehouse" / "cdc_staging.db" / "int_current_state_layers"

    def writing() -> bool:
        return location.is_dir() and any(location.iterdir())

    killed = False
    deadline = time.time() + 600
    for line in build.stdout:
        if "START sql incremental model cdc_staging.int_current_state_layers" in line:
            while build.poll() is None and not writing() and time.time() < deadline:
                time.sleep(0.01)
            os.killpg(build.pid, signal.SIGKILL)
            killed = writing()
            break
        assert time.time() < deadline
    build.wait(timeout=60)
    assert killed, "the build was not caught while writing current_state"

    # the next run (`cdc-pipeline dbt build`), then the tables before and after a full rebuild
    repaired, rebuilt, _ = snapshot_rebuild_snapshot(
        env, tmp_path, "run", "--full-refresh", *DATAWORKS_ONLY, "--target-path", str(tmp_path / "target"),
        first=["dbt", "build", *DATAWORKS_ONLY, "--target-path", str(tmp_path / "target")])
    assert any('"relation":"current_state"' in line for line in repaired), "nothing was built"
    assert rebuilt == repaired
