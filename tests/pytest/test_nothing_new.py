"""A `dbt build` with nothing new skips what has not changed, and only that.

Models are skipped when nothing they read changed since their last successful run (table
properties `cdc.version` / `cdc.inputs`, python_udfs/dbt_plugin/include/macros/
skip_unchanged.sql); data tests that already passed on the same model versions are not run
again unless `cdc_full_checks` is set. These tests check that a skip never hides new data,
a run that did not record its inputs (failed or killed) runs again, and full checks run
every test. The session's write settings (profiles.yml) are checked here too: the inserts into
the partitioned tables built here plan no sort, and a Parquet write drops a dictionary past
64 KiB.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from .conftest import PROJECT_DIR

pytestmark = pytest.mark.dbt

SAMPLE = (PROJECT_DIR / "samples" / "canal" / "store_products.jsonl").read_text(encoding="utf-8").splitlines()
SKIP = "SKIP nothing new"


def statuses(result) -> dict[str, str]:
    """{model name: run message} of a dbt result."""
    return {r.node.name: str(r.message) for r in result.result.results if r.node.resource_type == "model"}


def skipped_tests(pipeline) -> set[str]:
    """Data tests the last dbt invocation answered from memory (passed on these versions)."""
    results = json.loads((pipeline.work_dir / "target" / "run_results.json").read_text(encoding="utf-8"))
    return {
        result["unique_id"].split(".")[2] for result in results["results"]
        if result["unique_id"].startswith("test.")
        and (result.get("adapter_response") or {}).get("code") == "cdc_already_passed"
    }


# Queries that only shape a model's SQL while it compiles: staging's read plan, current_state's
# probe for rows merged from partial images, the state layers' sizes, the typed view's column list.
SHAPING_QUERIES = ("as string) as mark from", "where image_is_merged limit 1", "group by state_layer",
                   "lateral view explode(map_keys(row_image))")


def shaping_queries(pipeline) -> list[int]:
    """How many times each of SHAPING_QUERIES was sent so far (the pipeline's dbt log)."""
    text = (pipeline.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8")
    return [text.count(query) for query in SHAPING_QUERIES]


def property_queries(pipeline) -> int:
    """How many `show tblproperties` the pipeline's dbt invocations sent so far."""
    return (pipeline.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8").count("show tblproperties")


def canal_update(id_: int, price: str, es: int) -> str:
    return json.dumps({
        "data": [{"id": str(id_), "name": f"item {id_}", "price": price, "stock": "1", "updated_at": "2024-01-01 00:00:00"}],
        "database": "store", "es": es, "id": es, "isDdl": False,
        "mysqlType": {"id": "int(11)", "name": "varchar(64)", "price": "decimal(10,2)", "stock": "int(11)",
                      "updated_at": "datetime"},
        "old": [{"price": "0.00"}], "pkNames": ["id"], "sql": "",
        "sqlType": {"id": 4, "name": 12, "price": 3, "stock": 4, "updated_at": 93},
        "table": "products", "ts": es, "type": "UPDATE",
    })


@pytest.fixture(scope="module")
def built(make_pipeline):
    pipeline = make_pipeline("nothing_new", {"cdc_formats": ["canal"]}, checks="each_build")
    pipeline.write_json = True  # the tests read target/run_results.json
    pipeline.land("canal", SAMPLE)
    first = pipeline.build()
    return pipeline, first


def test_a_build_with_nothing_new_skips_every_model_and_passed_test(built):
    pipeline, first = built
    assert SKIP not in statuses(first).values()
    before = pipeline.sql("select count(*) as n, max(sort_key) as s from {s}.change_log")
    state_before = pipeline.sql("select row_key, sort_key, is_deleted from {s}.current_state order by row_key")

    counts_before = shaping_queries(pipeline)
    property_reads = property_queries(pipeline)
    second = pipeline.build()
    skipped = {name for name, message in statuses(second).items() if message == SKIP}
    # nothing committed since staging's last complete run (its table properties say so) and
    # nothing else changed: no model runs a query to shape SQL that will not run
    assert shaping_queries(pipeline) == counts_before
    # and every version is read from the schema listings dbt makes anyway, none on its own
    assert property_queries(pipeline) == property_reads
    for name in ("stg_canal__events", "change_log", "int_redelivered_changes", "current_state", "row_history",
                 "int_current_state_layers", "int_row_history_layers", "schema_changes", "quarantine", "int_update_halves_paired", "unpaired_update_halves", "int_stream_batches",
                 "stream_progress"):
        assert name in skipped, f"{name} ran with nothing new: {statuses(second)}"
    # stream_progress is a view: its freshness is measured when queried, so it grows untouched
    alive = "select max(seconds_since_source_alive) as s from {s}.stream_progress"
    first_look = pipeline.sql(alive)[0]["s"]
    time.sleep(1.1)
    assert pipeline.sql(alive)[0]["s"] > first_look
    assert pipeline.sql("select count(*) as n, max(sort_key) as s from {s}.change_log") == before
    assert pipeline.sql("select row_key, sort_key, is_deleted from {s}.current_state order by row_key") == state_before
    # tests on tables that did not change are answered from memory, and so are tests on landing
    # tables when no batch was committed since (their version is the committed mark)
    skipped_now = skipped_tests(pipeline)
    assert any(name.startswith("unique_change_log") for name in skipped_now), skipped_now
    assert "assert_every_landed_message_is_staged" in skipped_now, skipped_now
    # tests of ephemeral models too: remembered with the first stored model upstream, or, for
    # one that reads only landing tables, with the first stored model that reads it
    assert "unique_int_events_unioned_event_id" in skipped_now, skipped_now
    assert any(name.startswith("unique_combination_of_columns_stg_landing__requeued_messages")
               for name in skipped_now), skipped_now
    # and so are the seeds' tests while their files are unchanged (their tables are not reloaded)
    assert any(name.startswith("not_null_cdc_operation_codes") for name in skipped_now), skipped_now
    assert any(name.startswith("accepted_values_cdc_type_codes") for name in skipped_now), skipped_now


def test_new_data_is_never_skipped(built):
    pipeline, _ = built
    pipeline.land("canal", [canal_update(1, "9.99", 1_800_000_000_000)])
    counts_before = shaping_queries(pipeline)
    result = pipeline.build()
    # (with something new, each of them runs: the texts counted above are the real queries)
    assert all(after > before for after, before in zip(shaping_queries(pipeline), counts_before))
    ran = statuses(result)
    for name in ("stg_canal__events", "change_log", "int_current_state_layers", "int_row_history_layers"):
        assert ran[name] != SKIP, ran
    # the batch holds no DDL, nothing invalid and no update half: the models that select only
    # those skip their statement (their read window holds none); views keep their SQL
    for name in ("schema_changes", "quarantine", "int_update_halves_paired"):
        assert ran[name] == SKIP, ran
    for name in ("change_log", "current_state", "row_history"):
        assert ran[name] == "OK view unchanged", ran
    prices = pipeline.sql(
        "select row_image['price'] as price from {s}.current_state where table_id = 'store.products' and row_key = '1'"
    )
    assert prices == [{"price": "9.99"}]
    # and the tests checked the new versions: none was answered from memory in this build
    assert not any(name.startswith(("unique_change_log", "not_null_current_state")) for name in skipped_tests(pipeline))
    assert "assert_every_landed_message_is_staged" not in skipped_tests(pipeline)
    # ... but those of a model that skipped its statement were (its version did not change)
    assert any(name.startswith("unique_schema_changes_schema_change_id") for name in skipped_tests(pipeline))
    # and the skip moved its read window on: a DDL in the next batch is read, and only it
    ddl = json.dumps({"data": None, "database": "store", "es": 1_800_000_100_000, "id": 1_800_000_100_000,
                      "isDdl": True, "mysqlType": None, "old": None, "pkNames": None,
                      "sql": "ALTER TABLE products ADD COLUMN note varchar(64)", "sqlType": None,
                      "table": "products", "ts": 1_800_000_100_000, "type": "ALTER"})
    pipeline.land("canal", [ddl])
    before = pipeline.sql("select count(*) as n from {s}.schema_changes")[0]["n"]
    assert statuses(pipeline.build())["schema_changes"] != SKIP
    assert pipeline.sql("select count(*) as n from {s}.schema_changes")[0]["n"] == before + 1


def test_a_landing_table_without_a_committed_mark_is_always_read(built):
    pipeline, _ = built
    pipeline.build()
    # as if the landing table were written by something other than `cdc-pipeline land` (no
    # committed mark): nothing that reads it is taken as unchanged
    pipeline.sql("alter table {s}_landing.raw_canal unset tblproperties ('cdc.committed_through')")
    pipeline.build()
    assert "assert_every_landed_message_is_staged" not in skipped_tests(pipeline)
    # the next landing records a mark again, and its batch is read
    pipeline.land("canal", [canal_update(2, "1.50", 1_800_000_001_000)])
    pipeline.build()
    assert pipeline.sql(
        "select row_image['price'] as price from {s}.current_state where table_id = 'store.products' and row_key = '2'"
    ) == [{"price": "1.50"}]


def last_invocation_statements(pipeline) -> list[str]:
    """The SQL statements the pipeline's last dbt invocation sent (its dbt log), one text each."""
    text = (pipeline.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8")
    last = text.rsplit("Running with dbt=", 1)[-1]
    # a statement follows its `/* {"app": "dbt", ...} */` header up to the next log line
    return [body.split("\n\x1b[0m", 1)[0] for body in last.split('"app": "dbt"')[1:]]


def test_a_format_enabled_but_never_landed_is_not_read_until_it_lands(make_pipeline):
    """Its landing table is created committed through landing_created_mark(): from the second
    build on, no statement reads it or asks a model for a mark of its format; its first batch
    is read. (An older empty table without a mark gets the mark from the landing hook.)"""
    pipeline = make_pipeline("never_landed", {"cdc_formats": ["canal", "debezium"]})
    pipeline.land("canal", SAMPLE)
    assert pipeline.sql("show tblproperties {s}_landing.raw_debezium ('cdc.committed_through')") == [
        {"key": "cdc.committed_through", "value": "1970-01-01 00:00:00.000000"}
    ]
    # as a table created before landing tables were created committed: no mark, no row
    pipeline.sql("alter table {s}_landing.raw_debezium unset tblproperties ('cdc.committed_through')")
    pipeline.build()
    pipeline.land("canal", [canal_update(3, "2.50", 1_800_000_002_000)])
    assert statuses(pipeline.build())["stg_debezium__events"] == SKIP
    statements = last_invocation_statements(pipeline)
    assert any("stg_canal__events" in statement for statement in statements), statements[:3]
    assert not [s for s in statements if "raw_debezium" in s], "the never-landed table was read"
    # every mark query is staging's own plan for the new Canal batch: no model after staging
    # asks its rows for a mark of the format never landed
    mark_queries = [s for s in statements if "as mark from" in s]
    assert all("stg_canal__events" in s for s in mark_queries), mark_queries
    lines = (PROJECT_DIR / "samples" / "debezium" / "mysql_inventory_customers.jsonl").read_text(encoding="utf-8").splitlines()
    landed = pipeline.land("debezium", [line for line in lines if line.strip()])
    assert statuses(pipeline.build())["stg_debezium__events"] != SKIP
    assert pipeline.sql("select count(distinct message_id) as n from {s}_staging.stg_debezium__events") == [{"n": landed}]


def test_a_run_that_recorded_nothing_runs_again(built):
    pipeline, _ = built
    pipeline.build()
    # as if int_redelivered_changes' last run had been killed after its insert, before
    # recording its inputs
    pipeline.sql("alter table {s}_staging.int_redelivered_changes set tblproperties ('cdc.inputs' = '')")
    ran = statuses(pipeline.build())
    assert ran["int_redelivered_changes"] != SKIP, ran
    assert ran["stg_canal__events"] == SKIP, ran


def test_full_checks_run_every_test(built):
    pipeline, _ = built
    pipeline.build()
    pipeline.extra_vars["cdc_full_checks"] = True
    try:
        pipeline.build()
    finally:
        del pipeline.extra_vars["cdc_full_checks"]
    assert not skipped_tests(pipeline)


def test_a_full_refresh_is_never_skipped(built):
    pipeline, _ = built
    pipeline.build()
    ran = statuses(pipeline.build("--full-refresh"))
    assert SKIP not in ran.values(), ran


def test_an_empty_run_is_never_taken_for_the_data(built):
    pipeline, _ = built
    pipeline.build()
    counts = "select sum(messages_landed) as n from {s}_staging.int_stream_batches"
    landed = pipeline.sql(counts)
    assert landed[0]["n"] > 0
    pipeline.dbt("run", "--empty")  # rebuilds tables from no rows
    ran = statuses(pipeline.build())
    assert ran["int_stream_batches"] != SKIP, ran
    assert pipeline.sql(counts) == landed


def canal_unkeyed_insert(table: str, id_: int, es: int) -> str:
    """A Canal insert into a table whose messages name no primary key (keyed by a row hash)."""
    return json.dumps({
        "data": [{"id": str(id_), "note": f"note {id_}"}], "database": "store", "es": es, "id": es,
        "isDdl": False, "mysqlType": {"id": "int(11)", "note": "varchar(64)"}, "old": None,
        "pkNames": None, "sql": "", "sqlType": {"id": 4, "note": 12}, "table": table, "ts": es,
        "type": "INSERT",
    })


def data_test_results(pipeline) -> dict[str, dict]:
    """{test name: run result} of the pipeline's last dbt invocation."""
    results = json.loads((pipeline.work_dir / "target" / "run_results.json").read_text(encoding="utf-8"))
    return {r["unique_id"].split(".")[2]: r for r in results["results"] if r["unique_id"].startswith("test.")}


def test_a_warning_is_answered_from_memory_as_the_same_warning(built):
    pipeline, _ = built
    warning = "assert_every_table_has_a_primary_key"  # severity warn
    pipeline.land("canal", [canal_unkeyed_insert("notes", 1, 1_800_000_002_000)])
    pipeline.build()
    ran = data_test_results(pipeline)[warning]
    assert ran["status"] == "warn" and ran["failures"] == 1, ran
    assert ran["adapter_response"].get("code") != "cdc_already_warned", ran
    # nothing new: the same warning (status, count, message), from memory, so it stays visible
    result = pipeline.build()
    replayed = data_test_results(pipeline)[warning]
    assert replayed["adapter_response"].get("code") == "cdc_already_warned", replayed
    assert (replayed["status"], replayed["failures"], replayed["message"]) == (
        ran["status"], ran["failures"], ran["message"])
    assert result.success
    # when warnings of tests are errors, the remembered warning fails the build, as the query's would
    failed = pipeline.dbt("--warn-error-options", '{"include": ["LogTestResult"]}', "build", expect_success=False)
    assert not failed.success
    assert data_test_results(pipeline)[warning]["status"] == "fail"
    # a new unkeyed table: the warning is checked again, on the new data
    pipeline.land("canal", [canal_unkeyed_insert("memos", 1, 1_800_000_003_000)])
    pipeline.build()
    again = data_test_results(pipeline)[warning]
    assert again["adapter_response"].get("code") != "cdc_already_warned", again
    assert (again["status"], again["failures"]) == ("warn", 2), again


def test_changed_tables_properties_are_read_from_the_catalog_as_show_tblproperties_lists_them(built):
    """The builds above rewrote their tables' marks and versions, and their tests read them
    again: none of those reads was a `show tblproperties` (the adapter reads the session's
    catalog, python_udfs/pipeline/table_properties.py), and the catalog's answer is
    `show tblproperties`' own for every table and view of the pipeline and its landing."""
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.table_properties import read_table_properties, table_properties

    pipeline, _ = built
    assert property_queries(pipeline) == 0
    spark = SparkSession.builder.getOrCreate()
    compared = []
    for schema in (pipeline.schema, f"{pipeline.schema}_staging", f"{pipeline.schema}_landing"):
        for row in spark.sql(f"show tables in {schema}").collect():
            if row["isTemporary"]:
                continue
            name = f"{schema}.{row['tableName']}"
            listed = {r[0]: r[1] for r in spark.sql(f"show tblproperties {name}").collect()}
            assert read_table_properties(spark, schema, row["tableName"]) == listed, name
            assert table_properties(spark, name) == listed, name  # the landing's reader
            compared.append(row["tableName"])
    # tables, views (whose internal `view.*` properties are left out, as Spark lists them)
    # and the landing table, each with the marks the builds wrote
    assert {"stg_canal__events", "change_log", "current_state", "raw_canal"} <= set(compared), compared
    assert read_table_properties(spark, pipeline.schema, "change_log").get("cdc.version")
    assert read_table_properties(spark, f"{pipeline.schema}_landing", "raw_canal").get("cdc.committed_through")


def test_properties_are_written_through_the_catalog_as_the_statement_writes_them(built):
    """The builds above recorded every model's version and marks, the seeds' checksums and the
    tests' memory without one `alter ... set tblproperties` statement (the adapter runs the
    statement's command directly, python_udfs/pipeline/table_properties.py), and a write
    through the catalog leaves the properties the statement leaves, on a table and a view,
    with a quoted name and a value holding quotes."""
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.table_properties import (
        set_table_properties,
        sql_property_assignments,
        write_table_properties,
    )

    pipeline, _ = built
    log = (pipeline.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8")
    assert re.search(r"alter (table|view) \S+ set tblproperties", log) is None
    assert "written through the catalog" in log
    spark = SparkSession.builder.getOrCreate()
    schema = f"{pipeline.schema}_props"
    spark.sql(f"create schema if not exists {schema}")
    values = {"cdc.mark": "canal=2024-01-01 00:00:00.000000", "cdc.quoted": "it's \\ here"}
    for kind, ddl in (("table", "create table {name} (a int) using parquet"),
                      ("view", "create or replace view {name} as select 1 as a")):
        through_catalog, through_sql = f"`{schema}`.`{kind}_catalog`", f"{schema}.{kind}_sql"
        for name in (through_catalog, through_sql):
            spark.sql(ddl.format(name=name))
        write_table_properties(spark, through_catalog, values, is_view=kind == "view")
        spark.sql(f"alter {kind} {through_sql} set tblproperties ({sql_property_assignments(values)})")
        listed = [{r[0]: r[1] for r in spark.sql(f"show tblproperties {name}").collect()
                   if r[0].startswith("cdc.")} for name in (through_catalog, through_sql)]
        assert listed[0] == listed[1] == values, kind
    # a relation the catalog does not hold: the statement runs and says so
    with pytest.raises(Exception, match="(?i)not found|cannot be found"):
        set_table_properties(spark, f"{schema}.missing", {"cdc.mark": "x"})


def test_listed_table_properties_are_read_only_when_unambiguous():
    from dbt.adapters.spark_cdc.impl import parse_listed_table_properties

    described = "Database: cdc\nTable: change_log\nType: VIEW\n"
    assert parse_listed_table_properties(
        described + "Table Properties: [cdc.inputs=ab12, cdc.read_through=canal=2024-01-01 00:00:00.000000;"
        "debezium=2024-01-02 00:00:00.000000, cdc.version=9f]\nSchema: root\n"
    ) == {"cdc.inputs": "ab12", "cdc.version": "9f",
          "cdc.read_through": "canal=2024-01-01 00:00:00.000000;debezium=2024-01-02 00:00:00.000000"}
    # a described table with no properties has none; no description at all is not an answer
    assert parse_listed_table_properties(described) == {}
    assert parse_listed_table_properties("") is None
    # ambiguous: a value holding ', ' (an item without '='), a redacted value, a cut line
    assert parse_listed_table_properties(described + "Table Properties: [a=b, c, d=e]\n") is None
    assert parse_listed_table_properties(described + "Table Properties: [token=*********(redacted)]\n") is None
    assert parse_listed_table_properties(described + "Table Properties: [a=b\n") is None


def test_a_build_sends_no_statement_that_would_change_nothing(built):
    """dbt lists the schemas once per schema a build writes: Spark is asked once. The landing
    schema, which dbt does not cache, is listed once too: the landing hook's listing answers
    the staging models' lookups. The settings the embedded profile gives the session (dynamic
    partition overwrite, LAST_WIN map keys) are not set again by each partitioned insert and
    each run's landing hook; the overwrite stays dynamic all the same: the state layer a small
    batch does not write keeps its rows."""
    pipeline, _ = built
    log = pipeline.work_dir / "logs" / "dbt.log"
    layers = "select state_layer, count(*) as n from {s}_staging.int_current_state_layers group by state_layer"
    before = {row["state_layer"]: row["n"] for row in pipeline.sql(layers)}
    pipeline.land("canal", [canal_update(3, "3.33", 1_800_000_150_000)])
    start = len(log.read_text(encoding="utf-8"))
    ran = statuses(pipeline.build())
    text = log.read_text(encoding="utf-8")[start:]
    assert ran["int_current_state_layers"] != SKIP, ran
    assert "insert overwrite table" in text and text.count("show databases") == 1, text[-3000:]
    landing = f"{pipeline.schema}_landing"
    assert text.count(f"show table extended in {landing} like") == 1, text.count(f"show table extended in {landing}")
    assert f"create schema if not exists {landing}" not in text
    assert "set spark.sql.sources.partitionOverwriteMode" not in text
    assert "set spark.sql.mapKeyDedupPolicy" not in text
    after = {row["state_layer"]: row["n"] for row in pipeline.sql(layers)}
    assert before.get("base", 0) > 0 and after.get("base") == before["base"], (before, after)
    prices = pipeline.sql(
        "select row_image['price'] as price from {s}.current_state where table_id = 'store.products' and row_key = '3'"
    )
    assert prices == [{"price": "3.33"}]


def test_partitioned_tables_are_written_without_sorting_every_row_by_the_partition(built):
    # A layers model's insert writes one partition value (and the delta layer's placeholder
    # row): Spark sorted its whole output by that column before writing, unless the session
    # keeps a file open per partition value (profiles.yml, maxConcurrentOutputFileWriters).
    from pyspark.sql import SparkSession

    pipeline, _ = built
    spark = SparkSession.builder.getOrCreate()
    for table, partition in (("int_current_state_layers", "state_layer"), ("int_row_history_layers", "state_layer"),
                             ("int_stream_batches", "source_format")):
        name = f"{pipeline.schema}_staging.{table}"
        plan = spark.sql(f"explain insert overwrite table {name} select * from {name}").first()[0]
        assert "InsertIntoHadoopFsRelationCommand" in plan and partition in plan, plan
        assert "Sort [" not in plan, plan


def test_parquet_drops_a_column_dictionary_past_64_kib_and_keeps_a_small_one(built, tmp_path):
    # The session's writes (profiles.yml, parquet.dictionary.page.size): 2,000 ids of 64
    # characters, ten rows each (a 136 KiB dictionary, which Parquet's default of 1 MiB would
    # keep), are written without a dictionary; a column of three values keeps its own.
    import pyarrow.parquet as pq
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    rows = spark.range(20_000).selectExpr(
        "sha2(cast(id % 2000 as string), 256) as change_id", "cast(id % 3 as string) as operation"
    )
    rows.coalesce(1).write.parquet(str(tmp_path / "written"))
    (path,) = (tmp_path / "written").glob("*.parquet")
    row_group = pq.ParquetFile(path).metadata.row_group(0)
    has_dictionary = {row_group.column(i).path_in_schema: row_group.column(i).has_dictionary_page
                      for i in range(row_group.num_columns)}
    assert has_dictionary == {"change_id": False, "operation": True}


def test_tables_keep_no_size_statistics_and_an_insert_leaves_them_so(built):
    # Hive recounts a table's files at every change and Spark takes the count as the table's
    # statistics, which each insert then writes off: a metastore change per insert. Every
    # property write clears them (table_properties.NO_SIZE_STATISTICS, this embedded
    # metastore only), so a table the builds wrote has none, another insert leaves it so, Hive's
    # names never show among its properties, and Spark sizes it from its files.
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.table_properties import NO_SIZE_STATISTICS, read_table_properties

    pipeline, _ = built
    spark = SparkSession.builder.getOrCreate()
    external = spark._jsparkSession.sharedState().externalCatalog()
    tables = [(schema, row["tableName"]) for schema in (pipeline.schema, f"{pipeline.schema}_staging",
                                                        f"{pipeline.schema}_landing")
              for row in spark.sql(f"show tables in {schema}").collect() if not row["isTemporary"]]
    checked = []
    for schema, name in tables:
        table = external.getTable(schema, name)
        if table.tableType().name() == "VIEW":
            continue
        assert not table.stats().isDefined(), (schema, name, table.stats().get().simpleString())
        assert not set(read_table_properties(spark, schema, name)) & set(NO_SIZE_STATISTICS), (schema, name)
        checked.append((schema, name, table.partitionColumnNames().nonEmpty()))
    assert {name for _, name, _ in checked} >= {"stg_canal__events", "int_current_state_layers", "raw_canal"}
    assert any(partitioned for *_, partitioned in checked)
    staged = f"{pipeline.schema}_staging.stg_canal__events"
    spark.sql(f"insert into {staged} select * from {staged} where false")
    assert not external.getTable(f"{pipeline.schema}_staging", "stg_canal__events").stats().isDefined()
    location = Path(urlparse(str(external.getTable(f"{pipeline.schema}_staging", "stg_canal__events")
                                 .storage().locationUri().get())).path)
    files = sum(f.stat().st_size for f in location.iterdir() if f.is_file() and not f.name.startswith(("_", ".")))
    assert spark.table(staged)._jdf.queryExecution().optimizedPlan().stats().sizeInBytes() == files > 0


def codegen_settings() -> tuple[str, str]:
    from pyspark.sql import SparkSession

    conf = SparkSession.builder.getOrCreate().conf
    return conf.get("spark.sql.codegen.wholeStage"), conf.get("spark.sql.codegen.factoryMode")


def test_a_small_batch_is_built_without_generated_code_unless_told_otherwise(built, monkeypatch):
    # (last in this file: it changes the pipeline's vars, so later builds would parse again)
    pipeline, _ = built
    # the suite's own choice (conftest.py) would win: without it, the profile says generated code
    for name in ("CDC_WHOLE_STAGE_CODEGEN", "CDC_CODEGEN_FACTORY_MODE"):
        monkeypatch.delenv(name, raising=False)
    log = pipeline.work_dir / "logs" / "dbt.log"
    es = 1_800_000_200_000

    def build_a_batch() -> str:
        nonlocal es
        es += 1_000
        pipeline.land("canal", [canal_update(2, f"{es % 97}.00", es)])
        start = len(log.read_text(encoding="utf-8"))
        pipeline.dbt("run", "--select", "stg_canal__events", "change_log")
        return log.read_text(encoding="utf-8")[start:]

    # one new message, below cdc_small_batch_messages: staging counted it, and every statement
    # after that (change_log's too) runs interpreted
    text = build_a_batch()
    assert "canal: 1 new messages; generated code off" in text, text[-3000:]
    assert codegen_settings() == ("false", "NO_CODEGEN")
    # 0 turns it off: the profile's settings
    pipeline.extra_vars["cdc_small_batch_messages"] = 0
    text = build_a_batch()
    assert "canal: 1 new messages; generated code as the profile says" in text, text[-3000:]
    assert codegen_settings() == ("true", "FALLBACK")
    # a variable the user set wins; the other one is still fitted
    del pipeline.extra_vars["cdc_small_batch_messages"]
    monkeypatch.setenv("CDC_WHOLE_STAGE_CODEGEN", "true")
    build_a_batch()
    assert codegen_settings() == ("true", "NO_CODEGEN")


def test_ddl_without_ddl_meta_is_staged_without_the_python_udf(make_pipeline):
    """A batch whose DDL carries no ddlMeta (Canal's) builds schema_changes without the Python
    UDF that decodes DataWorks' ddlMeta (macro window_events_carry_ddl_meta), so no Python
    worker is started for it: its insert names no cdc_decode_ddl_meta, and the DDL lands with
    the nulls the UDF gives a missing ddlMeta."""
    pipeline = make_pipeline("ddl_no_meta", {"cdc_formats": ["canal"]})
    pipeline.land("canal", SAMPLE)
    pipeline.build()
    es = 1_800_000_003_000
    pipeline.land("canal", [json.dumps({
        "data": None, "database": "store", "es": es, "id": es, "isDdl": True, "mysqlType": None, "old": None,
        "pkNames": None, "sql": "ALTER TABLE products ADD COLUMN colour varchar(16)", "sqlType": None,
        "table": "products", "ts": es, "type": "ALTER",
    })])
    pipeline.build()
    inserts = [s for s in last_invocation_statements(pipeline) if "insert into table" in s and ".schema_changes" in s]
    assert len(inserts) == 1 and "cdc_decode_ddl_meta(" not in inserts[0], inserts
    assert "cast(null as struct<decoded_json: string, error: string>) as ddl_meta_result" in inserts[0]
    rows = pipeline.sql("""
        select table_id, operation, ddl_meta_decoded, ddl_meta_error, statement_kind from {s}.schema_changes
        where ddl_text = 'ALTER TABLE products ADD COLUMN colour varchar(16)'
    """)
    assert rows == [{"table_id": "store.products", "operation": "alter", "ddl_meta_decoded": None,
                     "ddl_meta_error": None, "statement_kind": None}], rows

