"""Names from messages are data, never code; one odd table never stops the others.

Every format lands real message shapes whose database, schema, table and column names are
replaced by hostile identifiers (Jinja, Spark `${...}` variables, SQL, control characters,
project model names, reserved words, long names, mixed case, Unicode: bench/fuzz.py's list).
Then the typed-model writer (`cdc-pipeline typed-models`) writes a model for every probe table
and the most hostile tables of each format into a copy of the project, which is built twice. The exact names must survive as data (table_id, row_image
keys, typed view columns) and nothing may be evaluated. Far-future timestamps must not stop
the Python readers (report, summary, query).
"""

from __future__ import annotations

import base64
import json
import os
import shutil

import pytest
from pyspark.sql import SparkSession

from bench.fuzz import HOSTILE_NAMES, DtsAvroMutator, JsonMutator, rename_key, replace, seeds
from python_udfs.pipeline.cli import command_query, command_summary, typed_models_report
from python_udfs.pipeline.report import collect, render
from python_udfs.pipeline.typed_models import model_name, spark_validator, write_typed_models

from .conftest import PROJECT_DIR, Pipeline

pytestmark = pytest.mark.dbt

FORMATS = ["canal", "datahub_tuple", "dataworks", "datastream", "debezium", "dts_avro", "shareplex"]
MESSAGES_PER_FORMAT = 300
TABLES_PER_FORMAT = 4
EVALUATED = {os.environ.get("HOME", "/root"), "0001-01-01", "cdc_changelog"}  # what Jinja / ${} would give
FAR_FUTURE_TIME = "9999-12-31T23:59:59-05:00"  # +10000-01-01 04:59:59 UTC


class ProjectCopy(Pipeline):
    """A Pipeline whose dbt runs a copy of the project, so generated typed models stay in it."""

    def __init__(self, name, work_dir, extra_vars=None):
        super().__init__(name, work_dir, extra_vars)
        self.project_dir = work_dir / "project"
        self.project_dir.mkdir()
        shutil.copy(PROJECT_DIR / "dbt_project.yml", self.project_dir)
        for folder in ["models", "macros", "seeds", "tests/data_tests"]:
            shutil.copytree(PROJECT_DIR / folder, self.project_dir / folder)

    def compile_inline(self, code: str) -> str:
        return self.dbt("compile", "--inline", code, "--quiet").result.results[0].node.compiled_code


def hostile_messages(format_id: str) -> list[str]:
    """Real message shapes with names (keys, database/table values) replaced by hostile ones."""
    if format_id == "dts_avro":
        mutator = DtsAvroMutator(seed=17)
        out = []
        while len(out) < MESSAGES_PER_FORMAT:
            record = mutator._renamed(mutator.rng.choice(mutator.records))
            try:
                out.append(base64.b64encode(mutator.encode(record)).decode("ascii"))
            except Exception:  # noqa: BLE001 - a record the writer cannot encode is not a message
                continue
        return out
    mutator = JsonMutator(seeds()[format_id], seed=17)
    out = []
    while len(out) < MESSAGES_PER_FORMAT:
        rng = mutator.rng
        text, document, _, dict_paths, name_paths, _ = rng.choice(mutator.seeds)
        for path in name_paths:
            if rng.random() < 0.7:
                document = replace(document, path, rng.choice(HOSTILE_NAMES))
        inner = [p for p in dict_paths if p]  # deepest first: a rename keeps the other paths valid
        for path in sorted(rng.sample(inner, min(len(inner), 3)), key=len, reverse=True):
            document = rename_key(document, path, rng.choice(HOSTILE_NAMES), rng)
        out.append(json.dumps(document, ensure_ascii=rng.random() < 0.5))
    return out


def canal(database, table, row, *, es, id_):
    return json.dumps({
        "data": [row], "old": None, "database": database, "table": table, "es": es, "id": id_, "isDdl": False,
        "pkNames": ["id"], "sql": "", "mysqlType": {c: "varchar(64)" if c != "id" else "int(11)" for c in row},
        "sqlType": None, "ts": es, "type": "INSERT",
    })


# The adversarial probe's cases, exactly (issue 17), plus names that collide once normalised.
PROBE = [
    ("shop", "probe", {"id": "1", "{{ env_var('HOME') }}": "home", "{{ modules.datetime.date(1,1,1) }}": "date",
                       "${env:HOME}": "dollar", "Foo": "upper", "foo": "lower", "_row_key": "shadow"}),
    ("shop", "bell\x07table", {"id": "1", "v": "bell"}),
    (None, "change_log", {"id": "1", "v": "core"}),
    ("shop", "order-items", {"id": "1", "v": "dash"}),
    ("shop", "order_items", {"id": "1", "v": "underscore"}),
    ("shop", "{{ env_var('HOME') }}", {"id": "1", "v": "jinja table"}),
    ("shop", "{% endraw %}{{ 7 * 7 }}", {"id": "1", "v": "endraw"}),
]


@pytest.fixture(scope="module")
def hostile(spark_home, tmp_path_factory):
    import uuid

    name = f"hostile_{uuid.uuid4().hex[:6]}"
    pipeline = ProjectCopy(name, tmp_path_factory.mktemp(name), {"cdc_formats": FORMATS})
    for format_id in FORMATS:
        pipeline.land(format_id, hostile_messages(format_id), "hostile.b64" if format_id == "dts_avro" else None)
    probe = [canal(db, table, row, es=1_700_000_000_000 + i, id_=i) for i, (db, table, row) in enumerate(PROBE)]
    pipeline.land("canal", probe, "probe.jsonl")
    # a truncate whose commit time is unknown (no `time`) still ends the rows before it
    pipeline.land("shareplex", [
        json.dumps({"meta": {"op": "ins", "table": "PROBE.TRUNCATED", "scn": "10", "rowid": "AAAR1",
                             "time": "2024-01-01T00:00:00"}, "data": {"ID": "1"}}),
        json.dumps({"meta": {"op": "trunc", "table": "PROBE.TRUNCATED", "scn": "20"}}),
        # a placeholder time plus a zone: year 10000 in UTC, which Spark holds and Python cannot
        json.dumps({"meta": {"op": "ins", "table": "shop.future", "scn": "30", "rowid": "AAAF1",
                             "time": FAR_FUTURE_TIME}, "data": {"id": "1", "v": "far"}}),
    ], "truncate.jsonl")
    pipeline.build()
    spark = SparkSession.builder.getOrCreate()
    models = write_typed_models(spark, pipeline.schema, pipeline.project_dir / "models" / "typed",
                                typed_tables(pipeline), spark_validator(spark, pipeline.compile_inline))
    # the typed models alone, twice: the first build above ran every other model (the data
    # tests of all of them run once the first test ends: conftest.py, CHECKS)
    first = pipeline.build("--select", "typed")
    second = pipeline.build("--select", "typed")
    return pipeline, models, first, second


def typed_tables(pipeline) -> list[str]:
    """The tables given typed models: every probe table, and per format the TABLES_PER_FORMAT
    live tables with the most hostile names in their table_id or columns (all ~900 tables would
    take most of an hour to build twice; `make fuzz` covers the many)."""
    rows = pipeline.sql("""
        select state.source_format, state.table_id, flatten(collect_list(map_keys(state.row_image))) as names
        from {s}.current_state as state where not state.is_deleted
        group by state.source_format, state.table_id""")
    chosen = {f"{db}.{table}" if db else table for db, table, _ in PROBE} | {"shop.future"}
    for format_id in FORMATS:
        def hostility(row):
            text = [row["table_id"], *row["names"]]
            return (-sum(1 for name in HOSTILE_NAMES if name and any(name in t for t in text)), row["table_id"])
        ranked = sorted((r for r in rows if r["source_format"] == format_id and r["table_id"] not in chosen), key=hostility)
        chosen.update(r["table_id"] for r in ranked[:TABLES_PER_FORMAT])
    return sorted(chosen)


def live_columns(pipeline) -> dict[str, set[str]]:
    rows = pipeline.sql("select table_id, map_keys(row_image) as names from {s}.current_state where not is_deleted")
    columns: dict[str, set[str]] = {}
    for row in rows:
        columns.setdefault(row["table_id"], set()).update(row["names"])
    return columns


def test_hostile_names_land_in_every_format_as_exact_data(hostile):
    pipeline, *_ = hostile
    names = pipeline.sql("""
        select source_format, collect_set(table_id) as tables, flatten(collect_list(map_keys(after))) as columns
        from {s}.change_log group by source_format""")
    by_format = {r["source_format"]: r for r in names}
    assert set(by_format) == set(FORMATS), sorted(by_format)
    for format_id, row in by_format.items():
        seen = {n for n in HOSTILE_NAMES if n in row["columns"] or any(n and n in t for t in row["tables"])}
        assert len(seen) >= 5, (format_id, seen)
    everything = {t for r in names for t in r["tables"]} | {c for r in names for c in r["columns"]}
    for exact in ["{{ env_var('HOME') }}", "{{ modules.datetime.date(1,1,1) }}", "${env:HOME}", "Foo", "foo",
                  "shop.bell\x07table", "change_log", "shop.order-items", "shop.order_items"]:
        assert exact in everything, exact
    assert not EVALUATED & everything


def test_typed_models_for_every_table_build_twice_with_the_exact_names(hostile):
    pipeline, models, first, second = hostile
    for result in (first, second):
        assert result.success and not [r for r in result.result if str(r.status) == "error"]
        built = {r.node.name for r in result.result if r.node.resource_type == "model"}
        assert built >= {m.name for m in models if not m.skipped}  # (and the project's example)
    by_table = {m.table_id: m for m in models}
    live = {t: names for t, names in live_columns(pipeline).items() if t in by_table}
    assert len(live) >= len(PROBE) + 2 * len(FORMATS)
    assert len({m.name for m in models}) == len(models)  # never two tables on one model
    assert not [m for m in models if m.skipped], [(m.table_id, m.skipped) for m in models if m.skipped]
    core = {"change_log", "current_state", "row_history", "quarantine", "schema_changes", "stream_progress"}
    assert all(m.name.startswith("typed__") and m.name not in core for m in models)
    spark = SparkSession.builder.getOrCreate()
    for table_id, names in live.items():
        view = spark.table(f"{pipeline.schema}_typed.{by_table[table_id].name}")
        columns = view.columns
        bookkeeping = columns[-5:]
        assert bookkeeping == ["_row_key", "_last_operation", "_committed_at", "_sort_key", "_uncastable_columns"]
        assert len(columns) - 5 == len(names), table_id
        lower = {}
        for column in columns[:-5]:  # every source column is there by its exact name (or name__n)
            base = column if column in names else column.rsplit("__", 1)[0]
            assert base in names, (table_id, column)
            lower.setdefault(column.lower(), 0)
            lower[column.lower()] += 1
        assert max(lower.values(), default=1) == 1
        assert view.count() == spark.sql(
            f"select count(*) from {pipeline.schema}.current_state where not is_deleted and table_id = :table_id",
            args={"table_id": table_id}).first()[0]
        assert not EVALUATED & set(columns)


def test_probe_cases_are_data_and_never_collide(hostile):
    pipeline, models, *_ = hostile
    by_table = {m.table_id: m for m in models}
    spark = SparkSession.builder.getOrCreate()
    probe = spark.table(f"{pipeline.schema}_typed.{by_table['shop.probe'].name}").first().asDict()
    assert probe["{{ env_var('HOME') }}"] == "home" and probe["{{ modules.datetime.date(1,1,1) }}"] == "date"
    assert probe["${env:HOME}"] == "dollar" and probe["_row_key__2"] == "shadow"
    assert {probe.get("Foo"), probe.get("foo__2")} == {"upper", "lower"}
    assert by_table["change_log"].name == "typed__change_log"
    assert by_table["shop.order_items"].name == "typed__shop__order_items"
    assert by_table["shop.order-items"].name == model_name("shop.order-items") != "typed__shop__order_items"
    report = "\n".join(typed_models_report(models))
    assert '"shop.order-items" -> typed__shop__order_items___' in report
    assert "normalise to the same name typed__shop__order_items" in report
    assert '"shop.bell\\u0007table" -> typed__shop__bell_table___' in report
    # the YAML names no column with Jinja in it; the SQL file holds only an escaped literal
    yml = (pipeline.project_dir / "models" / "typed" / f"{by_table['shop.probe'].name}.yml").read_text()
    assert "env_var" not in yml.split("\n", 2)[2] and "{{ doc(" in yml
    for model in models:
        sql = (pipeline.project_dir / "models" / "typed" / f"{model.name}.sql").read_text()
        assert sql.count("{") == 2 and sql.count("}") == 2 and "%" not in sql and "$" not in sql


def test_a_select_spark_cannot_plan_is_detected_and_skipped_with_a_warning(hostile, tmp_path):
    pipeline, *_ = hostile
    # the macro's own check (a typed view falls back to its bookkeeping columns when it is False)
    checks = pipeline.compile_inline(
        "{{ typed_select_plans('select * from ' ~ ref('current_state')) }}|"
        "{{ typed_select_plans('select no_such_column from ' ~ ref('current_state')) }}")
    assert checks.strip() == "True|False"
    # the writer: a table whose select does not plan gets no files and a warning naming it
    spark = SparkSession.builder.getOrCreate()
    real = spark_validator(spark, pipeline.compile_inline)

    def validate(models):
        reasons = real(models)
        for model in models:
            if model.table_id == "shop.order_items":  # as if its select did not plan: Spark's own words
                plan = str(spark.sql("explain select no_such_column").first()[0])
                reasons[model.table_id] = "Spark cannot plan its select: " + plan.splitlines()[0]
        return reasons

    models = write_typed_models(spark, pipeline.schema, tmp_path, ["shop.order_items", "shop.order-items"], validate)
    by_table = {m.table_id: m for m in models}
    assert by_table["shop.order_items"].skipped and not by_table["shop.order-items"].skipped
    assert not (tmp_path / "typed__shop__order_items.sql").exists()
    assert (tmp_path / f"{by_table['shop.order-items'].name}.sql").exists()
    warning = [line for line in typed_models_report(models) if line.startswith("WARNING")]
    assert warning == [f'WARNING: no typed model for table "shop.order_items": {by_table["shop.order_items"].skipped}']


def test_far_future_timestamps_never_stop_a_reader(hostile, capsys):
    pipeline, *_ = hostile
    spark = SparkSession.builder.getOrCreate()
    assert spark.sql(f"select count(*) from {pipeline.schema}.row_history where year(valid_from) >= 10000").first()[0] == 1
    streams, tables, hourly = collect(spark, pipeline.schema)
    future = next(t for t in tables if t["table_id"] == "shop.future")
    assert future["last_committed_at"].startswith("+10000-01-01 04:59:59")
    page = render(streams, tables, hourly, __import__("datetime").datetime(2026, 11, 25))
    assert "+10000-01-01 04:59:59" in page and "<script" not in page and "bell\x07" not in page.replace("&#x07;", "")
    os.environ["CDC_SCHEMA"] = pipeline.schema
    assert command_summary(pipeline.schema) == 0
    assert command_query(f"select * from {pipeline.schema}.row_history where table_id = 'shop.future'") == 0
    out = capsys.readouterr().out
    assert "+10000-01-01T04:59:59" in out and "\x07" not in out  # query: JSON written by Spark


def test_a_truncate_without_commit_time_ends_the_rows_before_it(hostile):
    pipeline, *_ = hostile
    table = "'PROBE.TRUNCATED'"
    state = pipeline.sql(f"select is_deleted, deleted_by from {{s}}.current_state where table_id = {table}")
    history = pipeline.sql(f"select is_current, ended_by, valid_to from {{s}}.row_history where table_id = {table}")
    assert state == [{"is_deleted": True, "deleted_by": "truncate"}]
    assert history == [{"is_current": False, "ended_by": "truncate", "valid_to": None}]
