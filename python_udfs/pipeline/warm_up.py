"""A new watch warms its Spark session up on the bundled samples while it waits for files.

The first batch a watch builds after its start costs about twice a later one: the JVM is
still compiling Spark's analyzer, optimizer and interpreted expressions, and dbt's first
invocation parses the project (bench/SUMMARY.md, 2026-12-05). So once the watch has run its
first cycle and finds nothing new to land, it builds the project's bundled samples
(``samples/<format>/`` of every enabled format) the way batches are built: each JSON-lines
file split into ``--warm-up-builds`` consecutive parts (default ``WARM_UP_BUILDS``, two), one
build each (a binary file lands whole with the first part), so every build after the first
runs the incremental paths. Measured on a 1,000-message batch of five formats (a fresh
process, one run each): built cold in 42.8 s, after a warm-up of two builds in 27.2 s.

HotSpot keeps compiling Spark's planner for about twenty 1,000-message batches after a start:
in a watch without a warm-up its compile time fell from 26 s in the second batch to 12.6 s in
the fifth and 1.4-3 s by the twentieth, and a batch from 24 s to 10-12 s
(bench/results/2026-12-07-eighteenth/). Eight warm-up builds halved the compilation left in
the first six batches (34 s against 68 s), but not their latency beyond the machine's noise
(the small bench: first batch 18.1 against 18.4 s, later ones 14.9-19.1 against 14.6-17.7 s),
for 150 s more CPU at the start: so two stay the default, and more are a choice. Builds the
size of a real batch (each sample part written 27 times, about 1,000 messages) did not
shorten the first batches either (bench/results/2026-12-07-nineteenth/).

Nothing of the user's is read or written. The warm-up lands and builds in schemas of its
own, ``<schema>_warm_up`` (and its ``_staging``, ``_seeds``, ``_typed`` and ``_landing``,
where ``<schema>`` is the profile's ``CDC_SCHEMA``), with the user's vars and dbt arguments
otherwise, and dbt's target and log folders under the watch's scratch folder; it drops those
schemas at the end. A warm-up build that fails costs only the warm-up (the next batch is
built as usual). Files that arrive meanwhile stop it at the next step (a landing or a
build); a stop request (Ctrl-C, SIGTERM) too. ``cdc-pipeline watch --no-warm-up`` turns it
off.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from .landing import is_message_file, land_formats

SCHEMA_SUFFIX = "_warm_up"
# the schemas a build writes: the profile's, dbt_project.yml's custom ones, the landing's
DERIVED_SCHEMAS = ("", "_staging", "_seeds", "_typed", "_landing")
# Builds of a warm-up by default (`cdc-pipeline watch --warm-up-builds`): the samples are
# split into as many parts (module docstring).
WARM_UP_BUILDS = 2
# dbt arguments the warm-up sets itself (each takes a value)
OWN_ARGUMENTS = ("--vars", "--target-path", "--log-path")


def warm_up_schema() -> str:
    """The schema the warm-up builds in: the profile's schema with ``_warm_up`` appended."""
    return os.environ.get("CDC_SCHEMA", "cdc") + SCHEMA_SUFFIX


def other_arguments(dbt_args: list[str]) -> list[str]:
    """``dbt_args`` without the arguments the warm-up sets (OWN_ARGUMENTS, as ``--x VALUE``
    or ``--x=VALUE``)."""
    kept: list[str] = []
    skip = False
    for argument in dbt_args:
        if skip:
            skip = False
        elif argument in OWN_ARGUMENTS:
            skip = True
        elif not argument.startswith(tuple(f"{name}=" for name in OWN_ARGUMENTS)):
            kept.append(argument)
    return kept


def sample_batches(
    project_dir: Path, formats: list[str], work: Path, parts: int = WARM_UP_BUILDS
) -> list[dict[str, list[Path]]]:
    """The bundled samples of ``formats`` as up to ``parts`` batches of files under ``work``:
    each JSON-lines file split into ``parts`` consecutive runs of lines, the k-th run in the
    k-th batch (a file of fewer lines fills fewer batches); a binary file (DTS Avro,
    Datastream Avro) whole in the first. A format without samples is left out, and so is a
    batch left empty."""
    parts = max(1, parts)
    batches: list[dict[str, list[Path]]] = [{} for _ in range(parts)]
    for format_id in formats:
        folder = project_dir / "samples" / format_id
        if not folder.is_dir():
            continue
        for source in sorted(p for p in folder.iterdir() if p.is_file() and is_message_file(p.name, format_id)):
            if source.suffix == ".jsonl":
                lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
                runs = [lines[k * len(lines) // parts:(k + 1) * len(lines) // parts] for k in range(parts)]
            else:
                runs = [None] + [[] for _ in range(parts - 1)]
            for index, run in enumerate(runs):
                if run == []:
                    continue
                target = work / f"batch-{index}" / format_id / source.name
                target.parent.mkdir(parents=True, exist_ok=True)
                if run is None:
                    shutil.copyfile(source, target)
                else:
                    target.write_text("".join(run), encoding="utf-8")
                batches[index].setdefault(format_id, []).append(target)
    return [batch for batch in batches if batch]


def drop_schemas(spark, schema: str) -> None:
    for suffix in DERIVED_SCHEMAS:
        name = (schema + suffix).replace("`", "``")
        spark.sql(f"drop database if exists `{name}` cascade")


def warm_up(
    spark,
    project_dir: Path,
    run_dbt: Callable[[Path, list[str]], bool],
    *,
    dbt_command: str,
    dbt_args: list[str],
    settings: dict,
    scratch_dir: Path,
    interrupted: Callable[[], bool],
    compaction: dict | None = None,
    log: Callable[[str], None] = print,
    builds: int = WARM_UP_BUILDS,
) -> str:
    """Build the samples in up to ``builds`` parts in the warm-up schemas (module docstring),
    checking ``interrupted`` before each step; returns what happened, as one line for the log."""
    started = time.perf_counter()
    formats = [f for f in settings.get("cdc_formats", []) if (project_dir / "samples" / f).is_dir()]
    if not formats:
        return "skipped: no bundled samples of an enabled format"
    schema = warm_up_schema()
    work = scratch_dir / "warm-up"
    shutil.rmtree(work, ignore_errors=True)
    batches = sample_batches(project_dir, formats, work / "samples", parts=builds)
    warm_vars = json.dumps({**settings, "cdc_landing_schema": schema + "_landing"})
    own = ["--vars", warm_vars, "--target-path", str(work / "target"), "--log-path", str(work / "logs")]
    user_schema = os.environ.get("CDC_SCHEMA")
    log(f"warming up: building the samples of {', '.join(formats)} in scratch schemas {schema}*")
    built = 0
    outcome = "done"
    os.environ["CDC_SCHEMA"] = schema
    try:
        drop_schemas(spark, schema)  # what a killed warm-up left
        if not run_dbt(project_dir, ["run-operation", "create_landing_tables", "--quiet", *own]):
            outcome = "stopped: its landing tables could not be created"
        for batch in batches if outcome == "done" else []:
            if interrupted():
                outcome = "stopped early: files arrived"
                break
            land_formats(spark, batch, project_dir=project_dir, landing_schema=schema + "_landing",
                         scratch_dir=work / "tmp", progress=False, **(compaction or {}))
            if interrupted():
                outcome = "stopped early: files arrived"
                break
            built += 1
            if not run_dbt(project_dir, [dbt_command, "--quiet", *other_arguments(dbt_args), *own]):
                outcome = "done (a warm-up build reported failures: only the warm-up is affected)"
    except Exception as error:  # noqa: BLE001 - the watch goes on cold, as without a warm-up
        outcome = f"stopped: {type(error).__name__}: {str(error)[:300]}"
    finally:
        if user_schema is None:
            os.environ.pop("CDC_SCHEMA", None)
        else:
            os.environ["CDC_SCHEMA"] = user_schema
        try:
            drop_schemas(spark, schema)
        except Exception as error:  # noqa: BLE001 - left for the next warm-up to drop
            log(f"warm-up: could not drop the scratch schemas {schema}*: {error}")
        shutil.rmtree(work, ignore_errors=True)
    return f"{outcome} in {time.perf_counter() - started:.1f} s ({built} builds)"
