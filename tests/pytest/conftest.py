"""Shared fixtures: one embedded Spark session and in-process dbt for the whole test run.

Every end-to-end scenario gets its own schemas (``<name>``, ``<name>_staging``,
``<name>_landing``) in one warehouse, so scenarios never see each other's data and the JVM
starts once.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import shutil
import sys
import uuid
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
SHARED_DIR = PROJECT_DIR.parent / "shared"
CONFORMANCE_DIR = SHARED_DIR / "conformance"
FIXTURES_DIR = PROJECT_DIR / "tests" / "fixtures"


# Interpreted expressions, no generated code, in every Spark the tests start (in process and
# in the subprocesses that inherit this environment): on a test's few rows Spark spends more
# time compiling each statement's code than running it (test_canal_pipeline.py: 68 s against
# 80-85 s). The benchmark and every other run keep Spark's default; the cluster test's
# cluster run keeps it too, and is compared with an interpreted embedded run.
# CDC_TEST_CODEGEN=1 runs the tests with generated code.
if os.environ.get("CDC_TEST_CODEGEN") != "1":
    os.environ.setdefault("CDC_WHOLE_STAGE_CODEGEN", "false")
    os.environ.setdefault("CDC_CODEGEN_FACTORY_MODE", "NO_CODEGEN")

# The JVMs of the CLI runs that tests start as subprocesses (test_watch.py,
# test_kill_and_rerun.py, test_cluster.py) live a minute or two: C1 only, as C2 compiles for
# work that ends before it pays (test_kill_and_rerun.py alone: 150-165 s of machine CPU
# against 208-220 s). The workers' own JVMs live the whole run and keep the default tiers
# (four pipeline test files in one process with C1 only: 830 s of CPU against 458 s).
# C1 only also shrinks HotSpot's code cache to 48 MB (240 MB with both tiers): a watch that
# repairs a killed run and then rebuilds in one process filled it, and the JVM failed ("Out of
# space in CodeCache for method handle intrinsic"), so the cache keeps the tiered size.
# CDC_TEST_SUBPROCESS_JVM_OPTIONS overrides it ("-XX:+UseParallelGC" alone: the default).
SUBPROCESS_JVM_OPTIONS = os.environ.get(
    "CDC_TEST_SUBPROCESS_JVM_OPTIONS",
    "-XX:+UseParallelGC -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=240m",
)


def subprocess_env(**values: str) -> dict[str, str]:
    """The environment of a CLI subprocess: this one with `values`, the short-lived JVM
    options and nothing from PYSPARK_SUBMIT_ARGS."""
    env = {**os.environ, "CDC_JVM_OPTIONS": SUBPROCESS_JVM_OPTIONS, **values}
    env.pop("PYSPARK_SUBMIT_ARGS", None)
    return env


# The longest test files (minutes each), longest first. `make test` hands whole files to two
# workers in collection order; starting these first keeps one long file from running alone
# at the end while the other worker idles.
LONGEST_FILES = (
    "test_watch.py",
    "test_cluster.py",
    "test_kill_and_rerun.py",
    "test_incremental_property.py",
    "test_hostile_names.py",
    "test_canal_conformance.py",
    "test_incremental_edge_cases.py",
    "test_dataworks_pipeline.py",
    "test_bench_generator.py",
)


# Files whose tests share no fixture: each test is its own unit of work for the workers.
INDEPENDENT_TESTS = ("test_incremental_edge_cases.py",)


# The dbt unit tests: fast, and the first to say the state logic broke.
FIRST_FILES = ("test_unit_tests.py",)


def pytest_collection_modifyitems(items):
    """Run the dbt unit tests, then the longest files first (a stable sort: the order inside a
    file is kept)."""
    rank = {name: index for index, name in enumerate(FIRST_FILES + LONGEST_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile`, except that the tests of INDEPENDENT_TESTS are spread one by one: a
    file stays on one worker, so its module fixtures are built once."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class FileScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return nodeid if path.endswith(INDEPENDENT_TESTS) else path

    return FileScheduling(config, log)


def record_lines(path: Path) -> list[str]:
    """The lines of a corpus file that are JSON records (as Paimon's harness feeds them)."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if not text.startswith("{"):
            continue
        try:
            json.loads(text)
        except ValueError:
            continue
        lines.append(text)
    return lines


def fixture_message(relative: str) -> str:
    """A fixture file (pretty JSON allowed) as one message line."""
    return json.dumps(json.loads((FIXTURES_DIR / relative).read_text(encoding="utf-8")), ensure_ascii=False)


def failures(result) -> str:
    """The failed or errored nodes of a dbt result, with their messages (not the whole result)."""
    lines = []
    for node_result in getattr(result.result, "results", None) or []:
        if str(node_result.status) in ("error", "fail", "runtime error"):
            lines.append(f"{node_result.node.name}: {node_result.status}: {(node_result.message or '')[:800]}")
    return "\n".join(lines) or str(result.result)[:3000]


# dbt bakes a run's schemas into its manifest, so every pipeline (own schemas) parsed the
# whole project again: 90 full parses of 4-5.5 s in a CI run, about a tenth of its worker
# time. A worker parses once per set of vars, with a placeholder schema, and each pipeline
# gets a copy with its own schema written in, decoded once the way dbt loads a partial-parse
# file (about 0.2 s); each invocation is handed a fresh copy of it (`dbtRunner(manifest=...)`),
# unpickled (about 0.02 s; decoding again took 0.19-0.31 s), so dbt neither parses nor checks
# the project's files for a partial parse.
# Only for the project itself: a copy a test edits (ProjectCopy) parses as usual.
# CDC_TEST_PARSE_EVERY_PIPELINE=1 parses for every pipeline, as before.
TEMPLATE_SCHEMA = "cdc0parse0template"
_PARSED_TEMPLATES: dict[str, bytes] = {}
# Vars read only when a node compiles or runs, never while dbt parses: the shared parse leaves
# them out, so pipelines that differ only in them share one parse (38 parses in a CI run were
# 15 sets of the other vars). Each with a value other than its default:
# test_project_structure.py parses with all of them set and compares the nodes.
COMPILE_TIME_VARS = {
    "cdc_primary_keys": {"shared.parse": ["id"]},
    "cdc_key_buckets": 4,
    "cdc_state_delta_ratio": 0.5,
    "cdc_compact_min_files": 3,
    "cdc_compact_file_bytes": 1000,
    "cdc_full_checks": True,
    "cdc_checks_together": False,
    "cdc_scoped_key_checks_min_bytes": 0,
    "cdc_small_batch_messages": 5,
    "cdc_column_types": {"shared.parse": {"id": "bigint"}},
    "cdc_debezium_column_types": {"shared.parse": {"born": "io.debezium.time.Date"}},
    "cdc_hbase_column_types": {"shared.parse": {"f_age": "long"}},
    "cdc_debezium_unavailable_value": "__unavailable__",
    "cdc_canal_legacy_layout": True,
}


def _swap_schema(value, old: str, new: str):
    """`value` (a manifest as msgpack data) with every `old` in its strings spelled `new`."""
    if isinstance(value, str):
        return value.replace(old, new) if old in value else value
    if isinstance(value, dict):
        return {_swap_schema(k, old, new): _swap_schema(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap_schema(v, old, new) for v in value]
    return value


def parsed_manifest(schema: str, dbt_vars: dict, work_dir: Path) -> bytes:
    """The project's manifest for `schema` and `dbt_vars`, pickled for loaded_manifest: parsed
    once per worker under a placeholder schema, then copied (as dbt's partial-parse file
    serializes it) with `schema` in place of the placeholder."""
    from dbt.cli.main import dbtRunner
    from dbt.contracts.graph.manifest import Manifest
    from dbt.parser.manifest import extended_mashumaro_encoder, extended_mashumuro_decoder

    template_vars = {name: value for name, value in json.loads(json.dumps(dbt_vars).replace(schema, TEMPLATE_SCHEMA)).items()
                     if name not in COMPILE_TIME_VARS}
    # the vars and the environment the profile and models read at parse time
    key = json.dumps([template_vars, sorted((k, v) for k, v in os.environ.items()
                                            if k.startswith("CDC_") and k != "CDC_SCHEMA")])
    if key not in _PARSED_TEMPLATES:
        os.environ["CDC_SCHEMA"] = TEMPLATE_SCHEMA
        parse_dir = work_dir / "template-parse"
        result = dbtRunner().invoke([
            "parse", "--quiet", "--no-partial-parse",
            "--project-dir", str(PROJECT_DIR),
            "--profiles-dir", str(PROJECT_DIR / "profiles"),
            "--target-path", str(parse_dir / "target"),
            "--log-path", str(parse_dir / "logs"),
            "--vars", json.dumps(template_vars),
        ])
        os.environ["CDC_SCHEMA"] = schema
        assert result.success, f"dbt parse failed: {result.exception}"
        _PARSED_TEMPLATES[key] = result.result.to_msgpack(extended_mashumaro_encoder)
    data = _swap_schema(extended_mashumuro_decoder(_PARSED_TEMPLATES[key]), TEMPLATE_SCHEMA, schema)
    manifest = Manifest.from_msgpack(extended_mashumaro_encoder(data), decoder=extended_mashumuro_decoder)
    # Its fields, not the object: Manifest's own __reduce_ex__ passes its lookups positionally
    # one field off (`fixtures` gets `_doc_lookup`). Fresh, so nothing compiled is kept; the
    # lock (never pickled) is made anew by the constructor.
    return pickle.dumps(
        {field.name: getattr(manifest, field.name) for field in dataclasses.fields(manifest) if field.name != "_lock"},
        protocol=pickle.HIGHEST_PROTOCOL,
    )


def loaded_manifest(data: bytes):
    """A fresh manifest object from `parsed_manifest`'s bytes. Each dbt invocation gets its own:
    compiling marks the nodes (ephemeral models' CTEs injected), and a manifest used twice would
    leave those CTEs out of the second invocation's SQL."""
    from dbt.contracts.graph.manifest import Manifest

    return Manifest(**pickle.loads(data))


# When a scenario's data tests run (`Pipeline.checks`):
# - "at_end" (the default): `build()` builds seeds and models, and the data tests run once,
#   when the test ends (or before a rebuild replaces the tables), as `cdc-pipeline watch` runs
#   them once idle. In a `dbt build` they check what landed after they last passed
#   (macros/common/checked_since.sql), so that one run covers every batch of the scenario; a
#   failure fails the test. The data tests of builds followed by another build took 758 s of
#   stop 79's CI run's ~4,300 s of worker time (bench/results/2026-12-06-tenth/).
# - "each_build": every `build()` runs them, as a user's `dbt build` does. For tests of the
#   checks themselves, tests that read a build's test results, and the property test, whose
#   random batches are also checked between builds.
CHECKS = ("at_end", "each_build")
_UNCHECKED: list[Pipeline] = []  # pipelines built without their data tests since they last ran


class Pipeline:
    """Land messages, run dbt and query results inside one scenario's schemas."""

    def __init__(self, name: str, work_dir: Path, extra_vars: dict | None = None,
                 checks: str = "at_end") -> None:
        assert checks in CHECKS, checks
        self.checks = checks
        self.schema = name
        self.work_dir = work_dir
        self.extra_vars = extra_vars or {}
        self.batches = 0
        self.project_dir = PROJECT_DIR  # the dbt project run (a copy in tests that write models)
        self._landing_vars: str | None = None  # the vars the landing tables were last created with
        self._manifest = None  # (vars, manifest) handed to dbt instead of parsing (parsed_manifest)
        # dbt writes no JSON artifacts (manifest.json, run_results.json: about 0.2-0.4 s an
        # invocation) unless a test reads them and sets this
        self.write_json = False

    @property
    def vars(self) -> dict:
        return {"cdc_landing_schema": f"{self.schema}_landing", **self.extra_vars}

    def dbt(self, *args: str, expect_success: bool = True):
        from dbt.cli.main import dbtRunner

        os.environ["CDC_SCHEMA"] = self.schema
        result = dbtRunner(manifest=self.manifest()).invoke(
            [
                *args,
                "--write-json" if self.write_json else "--no-write-json",
                "--project-dir", str(self.project_dir),
                "--profiles-dir", str(PROJECT_DIR / "profiles"),
                "--target-path", str(self.work_dir / "target"),
                "--log-path", str(self.work_dir / "logs"),
                "--vars", json.dumps(self.vars),
            ]
        )
        if expect_success:
            assert result.success, f"dbt {' '.join(args)} failed: {result.exception or failures(result)}"
        return result

    def manifest(self):
        """The parsed project for this pipeline's schemas and vars, or None: dbt parses."""
        if self.project_dir != PROJECT_DIR or os.environ.get("CDC_TEST_PARSE_EVERY_PIPELINE") == "1":
            return None
        key = json.dumps(self.vars, sort_keys=True)
        if self._manifest is None or self._manifest[0] != key:
            self._manifest = (key, parsed_manifest(self.schema, self.vars, self.work_dir))
        return loaded_manifest(self._manifest[1])

    def land(self, format_id: str, messages: list[str], name: str | None = None) -> int:
        """Write ``messages`` as one JSON-lines file and land it; returns rows landed."""
        from pyspark.sql import SparkSession

        from python_udfs.pipeline.cli import compaction_settings
        from python_udfs.pipeline.landing import land_files

        # the landing tables of these vars (created once; again when a test changes the vars)
        landing_vars = json.dumps(self.vars, sort_keys=True)
        if landing_vars != self._landing_vars:
            self.dbt("run-operation", "create_landing_tables", "--quiet")
            self._landing_vars = landing_vars
        self.batches += 1
        path = self.work_dir / "landing" / format_id / (name or f"batch-{self.batches:03d}.jsonl")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(m + "\n" for m in messages), encoding="utf-8")
        result = land_files(
            SparkSession.builder.getOrCreate(),
            format_id,
            [path],
            project_dir=PROJECT_DIR,
            landing_schema=f"{self.schema}_landing",
            scratch_dir=self.work_dir / "scratch",
            progress=False,
            # the landing's compaction settings from the vars, as `cdc-pipeline land` reads them
            **compaction_settings(self.vars),
        )
        return result.messages_landed

    def build(self, *args: str):
        """`dbt build *args`; with checks="at_end", its seeds and models only (the data tests
        run in `check()`, at the latest when the test ends)."""
        if self.checks == "each_build":
            return self.dbt("build", *args)
        result = self.dbt("build", *args, "--exclude-resource-type", "test")
        if self not in _UNCHECKED:
            _UNCHECKED.append(self)
        return result

    @property
    def unchecked(self) -> bool:
        """A build ran without its data tests since they last ran (checks="at_end")."""
        return self in _UNCHECKED

    def check(self):
        """The data tests of what the builds since their last pass wrote, as a watch runs them
        once idle (`dbt build --resource-type test`)."""
        if self in _UNCHECKED:  # once: a failure is reported by the test that ran it
            _UNCHECKED.remove(self)
        return self.dbt("build", "--resource-type", "test")

    def rebuild(self):
        """A full rebuild of the same landings, models only: tests compare its tables with the
        incremental ones (checked first, when their data tests have not run)."""
        if self.unchecked:
            self.check()
        return self.dbt("run", "--full-refresh")

    def sql(self, query: str) -> list[dict]:
        from pyspark.sql import SparkSession

        spark = SparkSession.builder.getOrCreate()
        return [row.asDict(recursive=True) for row in spark.sql(query.format(s=self.schema)).collect()]


@pytest.fixture(scope="session")
def spark_home(tmp_path_factory):
    """Point the embedded profile at a private warehouse and metastore for this run."""
    local = tmp_path_factory.mktemp("cdc_local")
    os.environ["CDC_LOCAL_DIR"] = str(local)
    os.environ["CDC_LOG4J_CONFIG"] = str(PROJECT_DIR / "profiles" / "log4j2.properties")
    os.environ["DBT_PROFILES_DIR"] = str(PROJECT_DIR / "profiles")
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ["CDC_SHUFFLE_PARTITIONS"] = "4"
    yield local
    try:
        from pyspark.sql import SparkSession

        active = SparkSession.getActiveSession()
        if active is not None:
            active.stop()
    finally:
        shutil.rmtree(local, ignore_errors=True)


@pytest.fixture(scope="session")
def make_pipeline(spark_home, tmp_path_factory):
    """Factory: a fresh, isolated pipeline (own schemas) per call."""

    def factory(prefix: str, extra_vars: dict | None = None, checks: str = "at_end") -> Pipeline:
        name = f"{prefix}_{uuid.uuid4().hex[:6]}"
        return Pipeline(name, tmp_path_factory.mktemp(name), extra_vars, checks)

    return factory


@pytest.fixture(autouse=True)
def deferred_checks():
    """After each test, the data tests of every pipeline built without them (`CHECKS`): a
    failing data test fails the test that last built (every pipeline is checked first)."""
    yield
    failed = []
    for pipeline in list(_UNCHECKED):
        try:
            pipeline.check()
        except AssertionError as error:
            failed.append(f"{pipeline.schema}: {error}")
    assert not failed, "\n".join(failed)
