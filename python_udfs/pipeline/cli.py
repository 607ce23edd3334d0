"""``cdc-pipeline``: land raw files, run dbt, and show results, all in one Spark process.

    cdc-pipeline land [--format F] [--stream NAME] [PATH ...]   land files, folders, globs, URIs (default landing/<format>/)
    cdc-pipeline dbt build [ARGS ...]                           any dbt command, same process
    cdc-pipeline watch [--format F] [PATH ...]                  land new files as they appear, build after each
    cdc-pipeline summary                                        counts, accounting, a few current rows
    cdc-pipeline query "select …"                               run Spark SQL, print JSON lines
    cdc-pipeline report [--out report.html]                     HTML page: lag and volume per stream/table
    cdc-pipeline requeue [--format F] [--reason CODE] [--build]  re-land open quarantine after a fix
    cdc-pipeline typed-models [--all | TABLE_ID ...]           write typed per-table models
    cdc-pipeline demo                                           land samples/, dbt build, summary
    cdc-pipeline jvm-archive [--force]                          write the class archive Spark starts from

Plain ``dbt build --profiles-dir profiles`` works as well; this entry point only saves the
JVM start between landing and building and resolves paths from the project folder.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path, PurePosixPath

from .codegen import SMALL_BATCH_MESSAGES
from .jit_mode import choose_for_input
from .landing import GLOB_CHARS, default_landing_paths, environment_defaults, is_uri, land_formats
from .warm_up import WARM_UP_BUILDS


def find_project_dir(start: Path) -> Path:
    for candidate in [start, *start.parents]:
        if (candidate / "dbt_project.yml").is_file():
            return candidate
    raise SystemExit("no dbt_project.yml here or above: run inside the project or pass --project-dir")


def run_dbt(project_dir: Path, args: list[str]) -> bool:
    from dbt.cli.main import dbtRunner

    full = [*args, "--project-dir", str(project_dir)]
    if "--profiles-dir" not in args:
        full += ["--profiles-dir", os.environ["DBT_PROFILES_DIR"]]
    result = dbtRunner().invoke(full)
    if result.exception is not None:
        print(f"dbt {args[0]} failed: {result.exception}", file=sys.stderr)
    return bool(result.success)


def project_vars(project_dir: Path) -> dict:
    import yaml

    with open(project_dir / "dbt_project.yml", encoding="utf-8") as handle:
        return (yaml.safe_load(handle) or {}).get("vars", {}) or {}


def vars_arguments(dbt_args: list[str]) -> list[str]:
    """The `--vars` of a dbt argument list (`--vars VALUE` or `--vars=VALUE`, the last one
    wins, as in dbt), as arguments to pass on; [] when there is none."""
    found: list[str] = []
    for index, argument in enumerate(dbt_args):
        if argument == "--vars" and index + 1 < len(dbt_args):
            found = ["--vars", dbt_args[index + 1]]
        elif argument.startswith("--vars="):
            found = ["--vars", argument[len("--vars="):]]
    return found


def settings_with(project_dir: Path, dbt_args: list[str]) -> dict:
    """The project's vars with those of `--vars` in ``dbt_args`` over them: what the landing
    (its schema, the enabled formats) must agree on with the dbt runs it is followed by."""
    import yaml

    settings = dict(project_vars(project_dir))
    given = vars_arguments(dbt_args)
    if given:
        overrides = yaml.safe_load(given[1]) or {}
        if not isinstance(overrides, dict):
            raise SystemExit(f"--vars must be a YAML or JSON mapping, not {given[1]!r}")
        settings.update(overrides)
    return settings


def compaction_settings(settings: dict) -> dict:
    """The landing's compaction arguments from the project's vars (compaction.py)."""
    from .compaction import DEFAULT_FILE_BYTES, DEFAULT_MIN_FILES

    return {
        "compact_min_files": int(settings.get("cdc_compact_min_files", DEFAULT_MIN_FILES)),
        "compact_file_bytes": int(settings.get("cdc_compact_file_bytes", DEFAULT_FILE_BYTES)),
    }


def spark_session():
    from pyspark.sql import SparkSession

    return SparkSession.builder.getOrCreate()


def format_folder(path: str) -> str:
    """The folder a path names a format by (landing/<format>/...): a folder's own name, a
    file's or glob's parent folder."""
    if is_uri(path):
        pure = PurePosixPath(path.split("://", 1)[1])
        return pure.parent.name if pure.suffix or GLOB_CHARS & set(pure.name) else pure.name
    local = Path(path)
    if local.is_dir():
        return local.resolve().name
    return local.resolve().parent.name


def command_land(project_dir: Path, paths: list[str], format_id: str | None, stream: str | None,
                 dbt_vars: str | None = None) -> int:
    # the landing schema and formats of the vars the builds run with (`--vars`, as dbt's)
    vars_given = ["--vars", dbt_vars] if dbt_vars else []
    settings = settings_with(project_dir, vars_given)
    formats = settings.get("cdc_formats", [])
    if paths:
        if format_id is None:
            parents = {format_folder(p) for p in paths}
            if len(parents) != 1 or next(iter(parents)) not in formats:
                raise SystemExit("pass --format: it cannot be told from the paths")
            format_id = parents.pop()
        plan = {format_id: [p if is_uri(p) else Path(p) for p in paths]}
    else:
        plan = default_landing_paths(project_dir, [format_id] if format_id else formats)
    # a small landing runs the quick JIT (jit_mode.py): decided before dbt starts the JVM
    choose_for_input(plan)
    if not run_dbt(project_dir, ["run-operation", "create_landing_tables", "--quiet", *vars_given]):
        return 2
    spark = spark_session()
    for fmt, fmt_paths in plan.items():
        print(f"landing {fmt} from {', '.join(str(p) for p in fmt_paths)}", flush=True)
    # the formats land side by side, each into its own table (land_formats)
    results = land_formats(
        spark,
        plan,
        project_dir=project_dir,
        landing_schema=settings.get("cdc_landing_schema", "cdc_landing"),
        stream_name=stream,
        scratch_dir=Path(os.environ["CDC_LOCAL_DIR"]) / "tmp",
        **compaction_settings(settings),
    )
    for result in results.values():
        print(
            f"landed {result.messages_landed} new messages into {result.table} "
            f"({result.files} files, {result.messages_skipped} already landed), "
            f"batch {result.batch_id}",
            flush=True,
        )
    return 0


# dbt threads of a watch's builds when CDC_THREADS is not set (command_watch).
WATCH_THREADS = 2


def command_watch(project_dir: Path, paths: list[str], format_id: str | None, args) -> int:
    from .warm_up import warm_up
    from .watch import StopFlag, watch

    # Two dbt threads unless CDC_THREADS says otherwise: a batch's independent models (the
    # staging models, the two state layers) overlap their small jobs in the one session. A
    # 1,000-message batch built in 10.6 s against 11.8 s with one (docs/operations.md).
    os.environ.setdefault("CDC_THREADS", str(WATCH_THREADS))
    if args.warm_up_builds < 1:
        raise SystemExit(f"--warm-up-builds must be at least 1, not {args.warm_up_builds} (--no-warm-up: none)")
    # the landing schema and formats of the vars dbt runs with (`--dbt-arg=--vars ...` too)
    settings = settings_with(project_dir, args.dbt_args or [])
    formats = settings.get("cdc_formats", [])
    vars_given = vars_arguments(args.dbt_args or [])
    if paths and format_id:
        plan = {format_id: [Path(p) for p in paths]}
    elif paths:
        # landing/<format>/ layout: each path is a format's folder (or a file inside one)
        plan: dict[str, list[Path]] = {}
        for p in paths:
            path = Path(p).resolve()
            name = path.name if path.is_dir() or not path.suffix else path.parent.name
            if name not in formats:
                raise SystemExit(f"pass --format: {p} is not a folder named after an enabled format ({', '.join(formats)})")
            plan.setdefault(name, []).append(path)
    else:
        root = project_dir / "landing"
        plan = {f: [root / f] for f in ([format_id] if format_id else formats)}
    if args.max_batches is not None:
        # a one-shot watch of small files runs the quick JIT (jit_mode.py): decided before dbt
        # starts the JVM; a watch that keeps running gains from C2's code in later batches
        choose_for_input(plan)
    if not run_dbt(project_dir, ["run-operation", "create_landing_tables", "--quiet", *vars_given]):
        return 2
    stop = StopFlag()
    stop.install()  # after the session started: PySpark sets its own SIGINT handler then
    watched = "; ".join(f"{f}: {', '.join(str(p) for p in ps)}" for f, ps in plan.items())
    print(f"watching {watched} (every {args.interval:g} s; Ctrl-C or SIGTERM stops between batches)", flush=True)
    # A batch's build writes no JSON artifacts (manifest.json, run_results.json: 0.45 s of a
    # 1,000-message batch) unless the user asks (--dbt-arg=--write-json); the idle checks,
    # whose results say what failed, and a --max-batches run still write them.
    no_json = [] if "--write-json" in (args.dbt_args or []) else ["--no-write-json"]
    dbt_args = [args.dbt_command, "--quiet", *(no_json if args.max_batches is None else []), *(args.dbt_args or [])]
    check = None
    if args.dbt_command == "build" and args.checks == "idle" and args.max_batches is None:
        # each batch builds without its data tests; they run when the watch is idle (watch.py)
        dbt_args = ["build", "--exclude-resource-type", "test", "--quiet", *no_json, *(args.dbt_args or [])]
        checks = ["build", "--resource-type", "test", "--quiet", *(args.dbt_args or [])]

        def check() -> bool:
            return run_dbt(project_dir, checks)

    scratch_dir = Path(os.environ["CDC_LOCAL_DIR"]) / "tmp"

    def warm_up_session(interrupted) -> str:
        return warm_up(
            spark_session(), project_dir, run_dbt, dbt_command=args.dbt_command, dbt_args=args.dbt_args or [],
            settings=settings, scratch_dir=scratch_dir, interrupted=interrupted,
            compaction=compaction_settings(settings), builds=args.warm_up_builds,
        )

    batches = watch(
        spark_session(),
        plan,
        lambda: run_dbt(project_dir, dbt_args),
        project_dir=project_dir,
        landing_schema=settings.get("cdc_landing_schema", "cdc_landing"),
        scratch_dir=scratch_dir,
        compaction=compaction_settings(settings),
        interval=args.interval,
        settle=args.settle,
        max_batches=args.max_batches,
        small_batch=args.small_batch,
        stop=stop,
        warm_up=warm_up_session if args.warm_up else None,
        check=check,
        check_within=args.checks_within,
        check_idle=args.checks_idle,
    )
    print(f"stopped after {batches} batches", flush=True)
    return 0


def terminal_text(value) -> str:
    """A value for the terminal: names from messages may hold control characters (BEL, escape
    sequences), shown as escapes instead of reaching the terminal (report.visible_text)."""
    from .report import visible_text

    return visible_text(value)


def print_table(rows: list, columns: list[str]) -> None:
    table = [[terminal_text(row[c])[:60] for c in columns] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in table]) for i, c in enumerate(columns)]
    print("  " + "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)))
    for r in table:
        print("  " + "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)))


def command_summary(schema: str) -> int:
    from .report import python_rows

    spark = spark_session()
    print(f"\nChange log per table ({schema}.change_log):")
    print_table(
        python_rows(
            spark,
            f"""select table_id, count(*) as changes,
                       count_if(operation = 'insert') as inserts,
                       count_if(operation = 'update') as updates,
                       count_if(operation = 'delete') as deletes
                from {schema}.change_log group by table_id order by table_id""",
        ),
        ["table_id", "changes", "inserts", "updates", "deletes"],
    )
    print(f"\nCurrent state per table ({schema}.current_state):")
    print_table(
        python_rows(
            spark,
            f"""select table_id, count_if(not is_deleted) as live_rows,
                       count_if(is_deleted) as tombstones
                from {schema}.current_state group by table_id order by table_id""",
        ),
        ["table_id", "live_rows", "tombstones"],
    )
    unkeyed = python_rows(
        spark,
        f"""select table_id, concat_ws(', ', sort_array(collect_set(row_key_kind))) as keyed_by,
                   count(*) as rows_in_state
            from {schema}.current_state where row_key_kind in ('row_id', 'row_hash')
            group by table_id order by table_id""",
    )
    if unkeyed:
        # an update of such a row may become a new row, a delete may remove nothing
        print("\nTables without a primary key (keyed by a row id or a row hash): key them with "
              "`cdc_primary_keys`;\n`dbt test --select assert_every_table_has_a_primary_key` "
              "suggests the entry for each:")
        print_table(unkeyed, ["table_id", "keyed_by", "rows_in_state"])
    print("\nLive rows (first 10):")
    print_table(
        python_rows(
            spark,
            f"""select table_id, row_key, to_json(row_image) as row_image, last_operation, committed_at
                from {schema}.current_state where not is_deleted
                order by table_id, row_key limit 10""",
        ),
        ["table_id", "row_key", "row_image", "last_operation", "committed_at"],
    )
    print("\nAccounting per format (messages: landed = with row changes + control only + quarantined):")
    print_table(
        python_rows(
            spark,
            f"""select source_format,
                       sum(messages_landed) as landed,
                       sum(messages_with_row_changes) as with_row_changes,
                       sum(control_messages) as control_only,
                       sum(quarantined_messages) as quarantined,
                       sum(row_events) as row_events
                from {schema}.stream_progress group by source_format order by source_format""",
        ),
        ["source_format", "landed", "with_row_changes", "control_only", "quarantined", "row_events"],
    )
    held = spark.sql(f"select count(*) as n from {schema}.unpaired_update_halves").first()["n"]
    print(f"  update halves waiting for their partner: {held}")
    print(f"\nQuarantine ({schema}.quarantine):")
    print_table(
        python_rows(
            spark,
            f"""select source_format, reason_code, count(*) as messages
                from {schema}.quarantine group by source_format, reason_code order by 1, 2""",
        ),
        ["source_format", "reason_code", "messages"],
    )
    return 0


def command_query(sql: str) -> int:
    # JSON is written by Spark: a timestamp Python's datetime cannot hold (year 10000) is text
    spark = spark_session()
    for row in spark.sql(sql).toJSON().collect():
        print(row)
    return 0


def command_report(schema: str, out: Path) -> int:
    import datetime as dt

    from .report import collect, render

    streams, tables, hourly = collect(spark_session(), schema)
    out.write_text(render(streams, tables, hourly, dt.datetime.now(dt.timezone.utc)), encoding="utf-8")
    print(f"wrote {out}")
    return 0


def command_requeue(project_dir: Path, schema: str, formats: list[str], reasons: list[str], build: bool) -> int:
    from .requeue import requeue_quarantined

    settings = project_vars(project_dir)
    user_tables = {
        format_id for format_id, override in (settings.get("cdc_sources") or {}).items()
        if "schema" in override or "identifier" in override
    }
    result = requeue_quarantined(
        spark_session(),
        schema=schema,
        landing_schema=settings.get("cdc_landing_schema", "cdc_landing"),
        user_table_formats=user_tables,
        formats=formats or None,
        reasons=reasons or None,
    )
    if not result.reasons:
        print("nothing to requeue: quarantine_open is empty for this selection")
        return 0
    print("open quarantine rows selected (format, reason):")
    for (format_id, reason), rows in sorted(result.reasons.items()):
        print(f"  {format_id:<14} {reason:<24} {rows}")
    for format_id, messages in sorted(result.messages.items()):
        print(f"re-landed {messages} messages of {format_id} as batch {result.batch_id}")
    for format_id in sorted(set(result.skipped_formats)):
        print(f"skipped {format_id}: it reads your own raw table (cdc_sources); re-produce the messages there")
    if build:
        return 0 if run_dbt(project_dir, ["build"]) else 1
    print("run `dbt build` (or `cdc-pipeline dbt build`) to process them")
    return 0


def compile_inline(project_dir: Path, code: str) -> str:
    """dbt's compiled SQL of inline Jinja (``dbt compile --inline``), in this process."""
    from dbt.cli.main import dbtRunner

    result = dbtRunner().invoke(["compile", "--inline", code, "--quiet", "--project-dir", str(project_dir),
                                 "--profiles-dir", os.environ["DBT_PROFILES_DIR"]])
    if not result.success:
        raise RuntimeError(str(result.exception or "dbt compile failed"))
    return result.result.results[0].node.compiled_code


def typed_models_report(models) -> list[str]:
    """What ``typed-models`` prints: one line per model, then names changed, shared bases,
    columns left out of the YAML and skipped tables (each naming the table as JSON)."""
    lines = []
    for model in models:
        state = ("skipped" if model.skipped else "written" if model.written else "exists, left as is")
        lines.append(f"  models/typed/{model.name}.sql  ({json.dumps(model.table_id)}, {len(model.columns)} columns) {state}")
    lossy = [m for m in models if m.lossy and not m.skipped]
    if lossy:
        lines.append("names that do not spell their table (case, punctuation, Unicode, length) carry a hash of the exact table_id:")
        lines += [f"  {json.dumps(m.table_id)} -> {m.name}" for m in lossy]
    bases: dict[str, list] = {}
    for model in models:
        bases.setdefault(model.name.split("___")[0], []).append(model)
    for base, group in sorted(bases.items()):
        if len(group) > 1:
            tables = ", ".join(f"{json.dumps(m.table_id)} -> {m.name}" for m in group)
            lines.append(f"these tables normalise to the same name {base}, so each has its own: {tables}")
    for model in models:
        if model.undocumented:
            names = ", ".join(json.dumps(n) for n in model.undocumented)
            lines.append(f"{model.name}: columns in the view but not in its YAML (Jinja or control characters, "
                         f"or a repeat without regard to case): {names}")
    for model in models:
        if model.skipped:
            lines.append(f"WARNING: no typed model for table {json.dumps(model.table_id)}: {model.skipped}")
    return lines


def command_typed_models(project_dir: Path, schema: str, table_ids: list[str], all_tables: bool) -> int:
    from .typed_models import spark_validator, write_typed_models

    if not table_ids and not all_tables:
        raise SystemExit("name the tables (table_id as in current_state) or pass --all")
    spark = spark_session()
    validate = spark_validator(spark, lambda code: compile_inline(project_dir, code))
    models = write_typed_models(spark, schema, project_dir / "models" / "typed", table_ids or None, validate)
    for line in typed_models_report(models):
        print(line, file=sys.stderr if line.startswith("WARNING") else sys.stdout)
    print("run `dbt build --select typed` to build them")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cdc-pipeline", description=__doc__.split("\n")[0])
    parser.add_argument("--project-dir", type=Path, default=None)
    commands = parser.add_subparsers(dest="command", required=True)
    land = commands.add_parser("land", help="land raw message files")
    land.add_argument(
        "paths",
        nargs="*",
        help="files, folders, globs or URIs (file://, hdfs://, s3a://; .gz/.bz2 too); a Kafka consumer "
        "dump with keys (kcat -C -J) lands each record with its key and lineage",
    )
    land.add_argument("--format", dest="format_id")
    land.add_argument("--stream", default=None, help="stream name (default: the format id; topic/partition for Kafka records)")
    land.add_argument("--vars", dest="dbt_vars", default=None,
                      help="dbt vars (YAML or JSON) over dbt_project.yml's, as given to the builds: "
                      "cdc_landing_schema and cdc_formats say where and what lands")
    watch = commands.add_parser("watch", help="land files as they appear and build after each batch (one warm Spark)")
    watch.add_argument("paths", nargs="*", help="folders or files to watch (default landing/<format>/)")
    watch.add_argument("--format", dest="format_id", help="the format of every given path")
    watch.add_argument("--interval", type=float, default=2.0, help="seconds between scans (default 2)")
    watch.add_argument("--settle", type=float, default=1.0,
                       help="land a file once unchanged for this many seconds (default 1)")
    watch.add_argument("--dbt-command", choices=["build", "run"], default="build",
                       help="what runs after each batch: build (models, seeds and, per --checks, data tests; default) "
                            "or run (models only, no data tests)")
    watch.add_argument("--checks", choices=["idle", "each-batch"], default="idle",
                       help="with --dbt-command build: run the data tests when the watch is idle, for "
                            "every batch built since (idle, default), or in each batch's build "
                            "(each-batch); a run with --max-batches builds each batch whole")
    watch.add_argument("--checks-within", type=float, default=300.0,
                       help="with --checks idle: check after a batch once the oldest unchecked one "
                            "has waited this many seconds (default 300), for streams that never pause")
    watch.add_argument("--checks-idle", type=float, default=10.0,
                       help="with --checks idle: run the checks once no file has been due for this "
                            "many seconds (default 10), so a steady stream's short gaps do not delay "
                            "its next batch")
    watch.add_argument("--dbt-arg", dest="dbt_args", action="append", default=[],
                       help="extra dbt argument, repeatable (e.g. --dbt-arg=--exclude --dbt-arg=typed); "
                       f"the builds run {WATCH_THREADS} dbt threads unless CDC_THREADS is set")
    watch.add_argument("--max-batches", type=int, default=None, help="stop after this many batches")
    watch.add_argument("--small-batch", type=int, default=SMALL_BATCH_MESSAGES,
                       help="build a batch of fewer messages than this without generated code "
                            f"(default {SMALL_BATCH_MESSAGES}; 0: never)")
    watch.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                       help="do not warm the session up on the bundled samples while no file is due "
                            "(scratch schemas <schema>_warm_up*; python_udfs/pipeline/warm_up.py)")
    watch.add_argument("--warm-up-builds", type=int, default=WARM_UP_BUILDS,
                       help="builds of the warm-up, the bundled samples split into as many parts "
                            f"(default {WARM_UP_BUILDS}; at least 1; --no-warm-up for none)")
    dbt = commands.add_parser("dbt", help="run a dbt command in this process")
    dbt.add_argument("dbt_args", nargs=argparse.REMAINDER)
    commands.add_parser("summary", help="print change-log and current-state figures")
    commands.add_parser("demo", help="land the bundled samples, build, and print the result")
    query = commands.add_parser("query", help="run one Spark SQL statement, print rows as JSON lines")
    query.add_argument("sql")
    report = commands.add_parser("report", help="write an HTML report of lag and volume")
    report.add_argument("--out", type=Path, default=Path("cdc-report.html"))
    requeue = commands.add_parser("requeue", help="land open quarantine rows again after a fix")
    requeue.add_argument("--format", dest="formats", action="append", default=[], help="only this format (repeatable)")
    requeue.add_argument("--reason", dest="reasons", action="append", default=[], help="only this reason code (repeatable)")
    requeue.add_argument("--build", action="store_true", help="run dbt build afterwards")
    typed = commands.add_parser("typed-models", help="write typed per-table models of current_state")
    typed.add_argument("table_ids", nargs="*", help="table_id as in current_state, e.g. shop.orders")
    typed.add_argument("--all", dest="all_tables", action="store_true", help="every table with live rows")
    archive = commands.add_parser(
        "jvm-archive", help="write the class archive that lets the embedded Spark start sooner (make install does)"
    )
    archive.add_argument("--force", action="store_true", help="write it again")
    args = parser.parse_args(argv)

    if args.command == "jvm-archive":
        from python_udfs.pipeline import jvm_archive

        return jvm_archive.main(["--force"] if args.force else [])

    project_dir = (args.project_dir or find_project_dir(Path.cwd())).resolve()
    environment_defaults(project_dir)
    try:
        return run_command(args, project_dir)
    finally:
        write_requested_jvm_dump()


def write_requested_jvm_dump() -> None:
    """When CDC_JVM_OPTIONS asks the driver JVM to write a class archive or an AOT cache as it
    exits (``-XX:ArchiveClassesAtExit=`` or, JDK 25, ``-XX:AOTCacheOutput=``), let it exit and
    write it: a run of the user's own work trains it (docs/operations.md, "Train the JVM on
    your own runs")."""
    from python_udfs.pipeline import jvm_archive

    if not jvm_archive.exit_dump_requested():
        return
    print("the driver JVM is writing the archive CDC_JVM_OPTIONS asks for as it exits ...", file=sys.stderr, flush=True)
    if not jvm_archive.stop_and_wait_for_the_jvm():
        print("no driver JVM was started: nothing written", file=sys.stderr)


def run_command(args: argparse.Namespace, project_dir: Path) -> int:
    """Run a parsed command other than jvm-archive; its exit status."""
    schema = os.environ.get("CDC_SCHEMA", "cdc")
    if args.command == "land":
        return command_land(project_dir, args.paths, args.format_id, args.stream, args.dbt_vars)
    if args.command == "dbt":
        return 0 if run_dbt(project_dir, args.dbt_args) else 1
    if args.command == "watch":
        return command_watch(project_dir, args.paths, args.format_id, args)
    if args.command in ("summary", "query", "report", "requeue", "typed-models"):
        # start the session through dbt, so it uses the project's profile
        if not run_dbt(project_dir, ["run-operation", "create_landing_tables", "--quiet"]):
            return 2
        if args.command == "summary":
            return command_summary(schema)
        if args.command == "report":
            return command_report(schema, args.out)
        if args.command == "typed-models":
            return command_typed_models(project_dir, schema, args.table_ids, args.all_tables)
        if args.command == "requeue":
            return command_requeue(project_dir, schema, args.formats, args.reasons, args.build)
        return command_query(args.sql)
    if args.command == "demo":
        samples = project_dir / "samples"
        enabled = project_vars(project_dir).get("cdc_formats", [])
        format_dirs = sorted(p for p in samples.iterdir() if p.is_dir() and p.name in enabled)
        choose_for_input({d.name: [d] for d in format_dirs})  # the samples are small: the quick JIT (jit_mode.py)
        for format_dir in format_dirs:
            status = command_land(project_dir, [str(format_dir)], format_dir.name, None)
            if status:
                return status
        if not run_dbt(project_dir, ["build"]):
            return 1
        return command_summary(schema)
    return 2


if __name__ == "__main__":
    sys.exit(main())
