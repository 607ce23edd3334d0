"""Continuous mode (``cdc-pipeline watch``): one warm Spark session lands message files as they
appear and builds after each batch, for minutes-old state without a streaming engine.

Each cycle scans the watched paths, lands every message file that is new or has grown since
it was last landed (landing is idempotent: a line already landed adds nothing; the formats
land side by side, landing.land_formats), then runs
dbt in the same process, so neither the JVM nor the metastore is started again. A file is
landed once it has not changed for ``settle`` seconds, so a file still being written is not
cut at a half-written line (write files elsewhere and rename them in, as usual for watched
folders, to be safe whatever the timing).

Stopping: Ctrl-C or SIGTERM asks the loop to stop; the batch in progress (its landing and its
build) finishes first. Killed at any moment instead (``kill -9``), nothing is lost: a
landing is one insert, a build that died midway is repaired by the next one, and on restart
the first cycle lands whatever is not landed yet and builds.

Checks when idle: with ``check`` given (the CLI's default, ``--checks idle``), a batch builds the
models only and the data tests of the batches built since the last checks run once nothing has
been due for ``check_idle`` seconds (so the short gaps of a steady stream do not hold its next
batch behind them), or after a batch once the oldest unchecked batch has waited
``check_within`` seconds (a stream that never pauses is still checked). The tests of a `dbt
build` check only what landed after they last passed (checked_since.sql), so one run of the
checks covers every batch since, as a test run after each batch would; a failed test keeps its
marks and checks those rows again next time. What this trades: a batch's state is there sooner (about 15 s instead of 25 s for
1,000 messages, bench/SUMMARY.md), and a failing data test no longer keeps the models
downstream of it from building that batch: the checks report it a little later instead.

Warm-up: a new watch that finds nothing due after its first cycle builds the bundled samples
in scratch schemas of its own, so the first real batch does not pay for the JVM's cold start
(warm_up.py; ``--no-warm-up`` turns it off). Files that arrive stop it at its next step.

Small batches run interpreted: a batch of fewer than ``small_batch`` messages is built with
Spark's generated code off (whole-stage and expression code generation), a larger one with the
session's settings (the settings and the default threshold: codegen.py). On a batch of a few
thousand rows, compiling each statement's generated code costs more than it saves: a
1,000-message batch of five formats built 12% faster warm (bench/SUMMARY.md, 2026-11-27
morning), while on 1M messages the generated code is worth at most a few percent. Setting
``CDC_WHOLE_STAGE_CODEGEN`` or ``CDC_CODEGEN_FACTORY_MODE`` yourself turns this off: the
session keeps what you set.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .codegen import INTERPRETED, SMALL_BATCH_MESSAGES
from .landing import land_formats, message_files

# (size, modification time in ns): a file whose signature changed has new content.
Signature = tuple[int, int]


@dataclass
class WatchedFiles:
    """What was seen and landed per file, to land each file again only when it changed."""

    landed: dict[Path, Signature] = field(default_factory=dict)

    def due(self, files: list[Path], settle: float, now: float) -> dict[Path, Signature]:
        """Files that are new or changed since landed, and quiet for ``settle`` seconds, with
        the signature they have now (recorded once landed: a change during the landing is
        seen by the next cycle)."""
        ready: dict[Path, Signature] = {}
        for path in files:
            try:
                stat = path.stat()
            except FileNotFoundError:  # removed between listing and stat
                continue
            signature = (stat.st_size, stat.st_mtime_ns)
            if self.landed.get(path) == signature:
                continue
            if now - stat.st_mtime_ns / 1e9 < settle:
                continue  # still being written: next cycle
            ready[path] = signature
        return ready

    def mark_landed(self, files: dict[Path, Signature]) -> None:
        self.landed.update(files)


# A batch's settings go through the profile's variables (codegen.INTERPRETED): dbt-spark
# applies the profile's settings to the session before every statement, and the variables are
# not part of dbt's profile hash, so changing them does not make dbt parse the project again.
CODEGEN_VARIABLES = {variable: value for variable, (_, value) in INTERPRETED.items()}


class CodegenBySize:
    """Generated code off for a batch of fewer than ``small_batch`` messages, the profile's
    defaults otherwise; a variable the user set before the start is left alone."""

    def __init__(self, small_batch: int) -> None:
        self.small_batch = small_batch
        self.managed = [name for name in CODEGEN_VARIABLES if name not in os.environ]

    def fit(self, messages: int | None) -> bool:
        """Settings for a batch of ``messages`` (None: unknown, the profile's defaults);
        returns whether this batch runs interpreted by this choice."""
        small = messages is not None and messages < self.small_batch
        for name in self.managed:
            if small:
                os.environ[name] = CODEGEN_VARIABLES[name]
            else:
                os.environ.pop(name, None)
        return small and bool(self.managed)


class StopFlag:
    """Set by SIGINT/SIGTERM; the loop checks it between batches."""

    def __init__(self) -> None:
        self.requested = False

    def install(self) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, self._handle)

    def _handle(self, signum, frame) -> None:  # noqa: ARG002
        if self.requested:  # asked twice: stop now (nothing is lost, see the module docstring)
            raise KeyboardInterrupt
        self.requested = True
        print("stop requested: finishing the current batch", flush=True)

    def sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.requested and time.monotonic() < deadline:
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))


def watch(
    spark,
    plan: dict[str, list[Path]],
    build: Callable[[], bool],
    *,
    project_dir: Path,
    landing_schema: str,
    scratch_dir: Path,
    compaction: dict | None = None,
    interval: float = 2.0,
    settle: float = 1.0,
    max_batches: int | None = None,
    small_batch: int = SMALL_BATCH_MESSAGES,
    stop: StopFlag | None = None,
    log: Callable[[str], None] = print,
    warm_up: Callable[[Callable[[], bool]], str] | None = None,
    check: Callable[[], bool] | None = None,
    check_within: float = 300.0,
    check_idle: float = 10.0,
) -> int:
    """Land and build until stopped; returns the number of batches processed.

    ``plan`` maps a format id to the files and folders to watch for it; ``build`` runs dbt
    and returns its success. The first cycle always builds (it repairs a build that an
    earlier process was killed in); later cycles build only when something landed. A batch of
    fewer than ``small_batch`` new messages builds without generated code (module docstring);
    a first cycle that landed nothing may have any amount left to build, so it keeps the
    session's settings. ``compaction``: land_files' compaction arguments. ``warm_up``: run
    once, in the first idle cycle after the first (warm_up.py), as a small batch; it is given
    a function that says whether to stop early (files are due or a stop was requested) and
    returns a line for the log. ``check``: runs the data tests of the batches built since it
    last ran and returns their success; given, it runs once nothing has been due for
    ``check_idle`` seconds after a batch, after a batch once the oldest unchecked one was built
    ``check_within`` seconds ago, and before a ``max_batches`` run ends (module docstring). A
    stop request leaves them to the next run.
    """
    stop = stop or StopFlag()
    codegen = CodegenBySize(small_batch)
    seen = WatchedFiles()
    batches, first, warmed = 0, True, warm_up is None
    # the batches built since the checks last ran: how many, their messages, when the first
    # and the last were built
    unchecked = {"batches": 0, "messages": 0, "since": 0.0, "built": 0.0}

    def run_checks(why: str) -> None:
        codegen.fit(unchecked["messages"])
        started = time.perf_counter()
        ok = check()
        count = unchecked["batches"]
        log(
            f"checks ({why}): the data tests of {count} batch{'es' if count != 1 else ''} "
            f"{'passed' if ok else 'failed (dbt reported failures: see its output; the rows they failed on are checked again next time)'}"
            f" in {time.perf_counter() - started:.1f} s"
        )
        unchecked.update(batches=0, messages=0, since=0.0, built=0.0)

    def due_files(quiet_for: float) -> dict[str, dict[Path, Signature]]:
        """Per format, the watched files new or changed since landed and unchanged for
        ``quiet_for`` seconds (WatchedFiles.due)."""
        due: dict[str, dict[Path, Signature]] = {}
        for format_id, paths in plan.items():
            existing = [p for p in paths if p.exists()]
            files = seen.due(message_files(existing, format_id), quiet_for, time.time()) if existing else {}
            if files:
                due[format_id] = files
        return due

    def files_pending() -> bool:
        """Whether a watched file is new or changed since landed (settled or not)."""
        try:
            return bool(due_files(0))
        except FileNotFoundError:  # removed while listed: the next scan sees it
            return True

    while not stop.requested:
        started = time.perf_counter()
        landed: dict[str, int] = {}
        due = due_files(settle)
        # the formats' files land side by side, each into its own table (land_formats)
        results = land_formats(
            spark, {f: list(files) for f, files in due.items()}, project_dir=project_dir,
            landing_schema=landing_schema, scratch_dir=scratch_dir, progress=False, **(compaction or {}),
        )
        for format_id, result in results.items():
            seen.mark_landed(due[format_id])
            if result.messages_landed:
                landed[format_id] = result.messages_landed
        landing_seconds = time.perf_counter() - started
        if landed or first:
            interpreted = codegen.fit(sum(landed.values()) if landed else None)
            ok = build()
            batches += 1
            total = time.perf_counter() - started
            what = ", ".join(f"{f} {n}" for f, n in sorted(landed.items())) or "nothing new"
            log(
                f"batch {batches}: landed {sum(landed.values())} messages ({what}) in "
                f"{landing_seconds:.1f} s, built in {total - landing_seconds:.1f} s"
                f"{' (small batch: without generated code)' if interpreted else ''}"
                f"{'' if ok else ' (dbt reported failures: see its output; the next batch retries)'}"
            )
            first = False
            if check is not None:
                if not unchecked["batches"]:
                    unchecked["since"] = time.monotonic()
                unchecked["batches"] += 1
                unchecked["messages"] += sum(landed.values())
                unchecked["built"] = time.monotonic()
                if time.monotonic() - unchecked["since"] >= check_within and not stop.requested:
                    run_checks(f"unchecked for {check_within:g} s")
            if max_batches is not None and batches >= max_batches:
                break
        elif unchecked["batches"]:
            if time.monotonic() - unchecked["built"] >= check_idle:
                run_checks("idle")
        elif not warmed:
            # idle after the first cycle: warm the session up until files are due
            warmed = True
            codegen.fit(0)
            log(f"warm-up: {warm_up(lambda: stop.requested or files_pending())}")
        stop.sleep(interval)
    if unchecked["batches"] and not stop.requested:
        run_checks("last batch")
    elif unchecked["batches"]:
        log(f"checks: {unchecked['batches']} unchecked batch(es) left to the next build or watch")
    return batches
