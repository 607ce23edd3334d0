"""`cdc-pipeline watch`: files dropped into a watched folder are landed and built by one warm
process; SIGTERM stops it between batches; a kill -9 in the middle of a batch loses nothing
once it is started again. Runs the real CLI in subprocesses with their own warehouse."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest

from .conftest import PROJECT_DIR, subprocess_env
from .test_kill_and_rerun import CLI, snapshot_rebuild_snapshot

pytestmark = pytest.mark.dbt

SAMPLE = PROJECT_DIR / "samples" / "canal" / "store_products.jsonl"
# Only Canal, the format the test drops: the other formats' empty models add minutes, not coverage.
CANAL_ONLY = '{"cdc_formats": ["canal"]}'


def drop(folder: Path, name: str, lines: list[str]) -> None:
    """Write a file next to the folder, then rename it in (how files should reach a watched folder)."""
    staging = folder.parent / f".{name}.part"
    staging.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    staging.rename(folder / name)


def wait_for(process: subprocess.Popen, text: str, seen: list[str], timeout: float = 300) -> str:
    deadline = time.time() + timeout
    while time.time() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 1.0)
        if ready:
            line = process.stdout.readline()
            if not line and process.poll() is not None:
                break
            seen.append(line)
            if text in line:
                return line
        elif process.poll() is not None:
            break
    raise AssertionError(f"no {text!r} from watch; output:\n{''.join(seen)[-3000:]}")


# what a batch line says when dbt reported a failed model or data test
FAILED = "dbt reported failures"
WATCH_ARGS = ["watch", "--format", "canal", "--interval", "0.5", "--settle", "0.2", "--no-warm-up",
              "--dbt-arg=--vars", f"--dbt-arg={CANAL_ONLY}"]


def start_watch(env: dict, folder: Path, *extra: str) -> subprocess.Popen:
    """A watch whose batches run the models only (`--dbt-command run`): the data tests run in
    the restarted watch at the end, which keeps the default `build`."""
    return subprocess.Popen(
        [*CLI, *WATCH_ARGS, "--dbt-command", "run", str(folder), *extra],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )


def test_watch_lands_builds_stops_and_survives_a_kill(tmp_path: Path):
    env = subprocess_env(CDC_LOCAL_DIR=str(tmp_path / "local"), CDC_SCHEMA="cdc",
                         DBT_PROFILES_DIR=str(PROJECT_DIR / "profiles"), CDC_SHUFFLE_PARTITIONS="4",
                         DBT_TARGET_PATH=str(tmp_path / "target"), DBT_LOG_PATH=str(tmp_path / "logs"),
                         PYTHONUNBUFFERED="1")
    lines = [line for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(lines) >= 6
    folder = tmp_path / "incoming"
    folder.mkdir()
    drop(folder, "part-1.jsonl", lines[:2])

    seen: list[str] = []
    watcher = start_watch(env, folder)
    try:
        first = wait_for(watcher, "batch 1:", seen)
        assert "landed 2 messages" in first and FAILED not in first, first
        # a new file starts the next batch; the file already landed is not landed again
        drop(folder, "part-2.jsonl", lines[2:4])
        second = wait_for(watcher, "batch 2:", seen)
        assert "landed 2 messages" in second and FAILED not in second, second
        # SIGTERM: stops between batches, cleanly
        watcher.send_signal(signal.SIGTERM)
        assert watcher.wait(timeout=120) == 0
        assert any("stopped after 2 batches" in line for line in [*seen, watcher.stdout.read()])
        # its builds ran two dbt threads (CDC_THREADS unset: the watch's default)
        assert "Concurrency: 2 threads" in (tmp_path / "logs" / "dbt.log").read_text(encoding="utf-8")
    finally:
        if watcher.poll() is None:
            os.killpg(watcher.pid, signal.SIGKILL)

    # kill -9 in the middle of a batch (after the new file is seen, during landing or build)
    watcher = start_watch(env, folder)
    seen = []
    try:
        wait_for(watcher, "batch 1:", seen)
        drop(folder, "part-3.jsonl", lines[4:])
        time.sleep(2.5)
        os.killpg(watcher.pid, signal.SIGKILL)
        watcher.wait(timeout=60)
    finally:
        if watcher.poll() is None:
            os.killpg(watcher.pid, signal.SIGKILL)

    # started again (in the process that then takes the snapshots): the first batch lands
    # what is missing and repairs the build; a full rebuild changes nothing, the landed
    # messages included
    landed = {"landed": "select raw_value from cdc_landing.raw_canal"}
    repaired, rebuilt, output = snapshot_rebuild_snapshot(
        env, tmp_path, "run", "--full-refresh", "--vars", CANAL_ONLY, "--target-path", str(tmp_path / "target"),
        extra=landed, first=[*WATCH_ARGS, str(folder), "--max-batches", "1"])
    assert "batch 1:" in output and FAILED not in output, output[-3000:]
    assert any('"relation":"current_state"' in line for line in repaired)
    assert len([line for line in repaired if '"relation":"landed"' in line]) == len(lines)
    assert rebuilt == repaired
