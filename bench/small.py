"""Small-batch figures, each a whole process as a user starts it (called by bench/run.py).

On a fresh warehouse holding one built batch of mixed messages:

* ``bare_start``: ``cdc-pipeline dbt run-operation create_landing_tables``: the JVM, the
  metastore and dbt's parse, nothing else: the yardstick of the two targets below.
* ``noop_build``: ``cdc-pipeline dbt build`` with nothing new landed.
* ``batch_build``: a new batch of BATCH messages landed and built in one process
  (``cdc-pipeline watch --max-batches 1`` on the batch's folders).
* ``watch_batch``: a warm ``cdc-pipeline watch``: from the moment a new BATCH-message batch is
  moved into the watched folders to the end of its build. The batches are moved in once the
  watch has warmed its session up on the bundled samples (python_udfs/pipeline/warm_up.py),
  as a watch does while no file is due; ``watch_warm_up_s`` is how long that took.
* ``watch_steady``: the same watch, STEADY more batches moved in after those: the JIT keeps
  compiling for the first few batches (the first a watch builds costs about twice the later
  ones), so the median of the last three says what a watch that has run a while takes.
* ``watch_checks``: the batches are moved in back to back, so the watch builds each without its
  data tests (``--checks idle``, python_udfs/pipeline/watch.py) and runs them for all of them
  once it is idle after the last: how long that took, and for how many batches.

Each figure is the median of REPS runs; ratios are taken against the median bare start.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.generate import generate_format

PROJECT_DIR = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "python_udfs.pipeline.cli", "--project-dir", str(PROJECT_DIR)]


def timed(command: list[str], env: dict) -> float:
    started = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    return time.perf_counter() - started


def batch_folders(root: Path, batch: int, formats: list[str]) -> list[str]:
    return [str(root / f"batch-{batch}" / f) for f in formats if (root / f"batch-{batch}" / f).is_dir()]


def read_until(process: subprocess.Popen, text: str, timeout: float = 600) -> str:
    deadline, seen = time.time() + timeout, []
    while time.time() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 1.0)
        if ready:
            line = process.stdout.readline()
            seen.append(line)
            if text in line:
                return line
            if not line and process.poll() is not None:
                break
    raise SystemExit(f"watch did not print {text!r}:\n{''.join(seen)[-3000:]}")


def watch_figures(latencies: list[float], reps: int) -> dict:
    """The watch's figures from its batches' latencies in order: the first ``reps`` are the
    target's (``watch_batch_s``, their median), the rest its steady state (``watch_steady_s``,
    the median of the last three, when there are any)."""
    figures = {"watch_batch_s": latencies[:reps], "watch_steady_s": latencies[reps:],
               "watch_batch_median_s": round(statistics.median(latencies[:reps]), 2)}
    if figures["watch_steady_s"]:
        figures["watch_steady_median_s"] = round(statistics.median(figures["watch_steady_s"][-3:]), 2)
    return figures


def run_small(work: Path, formats: list[str], dbt_vars: dict, *, batch: int = 1000, reps: int = 3,
              steady: int = 4, seed: int = 20261124) -> dict:
    import json

    root = work / "runs" / "small"
    shutil.rmtree(root, ignore_errors=True)
    stream = root / "stream"
    # batch 0: the history already built; then one batch per timed run (each new data)
    batches = [batch // len(formats)] * (1 + 2 * reps + steady)
    for format_id in formats:
        generate_format(format_id, batches, seed, stream, file_lines=0)
    env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench",
               DBT_PROFILES_DIR=str(PROJECT_DIR / "profiles"), PYTHONUNBUFFERED="1")
    vars_args = ["--vars", json.dumps(dbt_vars)]
    target = ["--target-path", str(root / "target"), "--log-path", str(root / "logs")]

    first = batch_folders(stream, 0, formats)
    timed([*CLI, "watch", *first, "--max-batches", "1", "--dbt-arg=--vars", f"--dbt-arg={json.dumps(dbt_vars)}"], env)
    figures: dict = {"batch_messages": batch, "reps": reps, "formats": formats}
    figures["bare_start_s"] = [round(timed([*CLI, "dbt", "run-operation", "create_landing_tables", *vars_args, *target], env), 2)
                               for _ in range(reps)]
    figures["noop_build_s"] = [round(timed([*CLI, "dbt", "build", *vars_args, *target], env), 2) for _ in range(reps)]
    figures["batch_build_s"] = [
        round(timed([*CLI, "watch", *batch_folders(stream, 1 + i, formats), "--max-batches", "1",
                     "--dbt-arg=--vars", f"--dbt-arg={json.dumps(dbt_vars)}"], env), 2)
        for i in range(reps)
    ]
    # warm watch: folders named after the formats, batches moved in one after another
    inbox = root / "inbox"
    for format_id in formats:
        (inbox / format_id).mkdir(parents=True, exist_ok=True)
    watcher = subprocess.Popen(
        [*CLI, "watch", *[str(inbox / f) for f in formats], "--interval", "0.2", "--settle", "0",
         "--dbt-arg=--vars", f"--dbt-arg={json.dumps(dbt_vars)}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        read_until(watcher, "batch 1:")
        warm_up_started = time.perf_counter()
        read_until(watcher, "warm-up:")
        figures["watch_warm_up_s"] = round(time.perf_counter() - warm_up_started, 2)
        latencies = []
        for i in range(reps + steady):
            source = stream / f"batch-{1 + reps + i}"
            started = time.perf_counter()
            for format_id in formats:
                for path in (source / format_id).rglob("*.jsonl"):
                    target_path = inbox / format_id / f"r{i}-{path.parent.name}-{path.name}"
                    path.rename(target_path)
            read_until(watcher, f"batch {2 + i}:")
            latencies.append(round(time.perf_counter() - started, 2))
        figures.update(watch_figures(latencies, reps))
        # idle now: the data tests of the batches built without them (watch.py, `--checks idle`)
        checked = re.search(r"checks \(idle\): the data tests of (\d+) batch(?:es)? (?:passed|failed).* in ([0-9.]+) s",
                            read_until(watcher, "checks (idle)"))
        if checked:
            figures["watch_checks_batches"], figures["watch_checks_s"] = int(checked[1]), float(checked[2])
    finally:
        watcher.terminate()
        watcher.wait(timeout=300)
    for name in ("bare_start_s", "noop_build_s", "batch_build_s"):
        figures[name[: -len("_s")] + "_median_s"] = round(statistics.median(figures[name]), 2)
    start = figures["bare_start_median_s"]
    figures["noop_build_vs_start"] = round(figures["noop_build_median_s"] / start, 2)
    figures["batch_build_vs_start"] = round(figures["batch_build_median_s"] / start, 2)
    return figures
