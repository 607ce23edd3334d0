"""History-wide data tests check, in a `dbt build`, only what arrived since they last passed
(python_udfs/dbt_plugin/include/macros/checked_since.sql; macros/common/checked_since.sql).

These tests check that a passing build moves the marks, that a failing test keeps them (the
rows it failed on are checked again until it passes), that the build's SQL reads only the new
landing times while `dbt test` and full checks read everything, that on a large history (the
fixture's threshold 0) the accounting tests look up beyond the window only what they do not
find in it (a redelivered copy) and the balance checks each new batch's counts, that an edit of old
history the marks hide is still found by full checks, that the column checks of a model
whose rows are only appended count the new rows, and find a new row repeating an old key, and
that the state tests check the keys changed since they last passed until a compaction.
"""

from __future__ import annotations

import json

import pytest

from .conftest import PROJECT_DIR

pytestmark = pytest.mark.dbt

SAMPLE = (
    (PROJECT_DIR / "samples" / "canal" / "store_products.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
)
ACCOUNTED = "assert_every_event_is_accounted_for"
STAGED = "assert_every_landed_message_is_staged"
BALANCE = "assert_landed_messages_balance"
CURRENT = "assert_current_state_matches_latest_change"
HISTORY = "assert_row_history_agrees_with_current_state"
LAYERS = ("int_current_state_layers", "int_row_history_layers")
OPERATION_CHECK = "accepted_values_current_state_last_operation__insert__update__delete__read"
DELETED_BY_CHECK = "accepted_values_current_state_deleted_by__delete__truncate"


def canal_insert(id_: int, es: int) -> str:
    return json.dumps(
        {
            "data": [{"id": str(id_), "name": f"item {id_}"}],
            "database": "store",
            "es": es,
            "id": es,
            "isDdl": False,
            "mysqlType": {"id": "int(11)", "name": "varchar(64)"},
            "old": None,
            "pkNames": ["id"],
            "sql": "",
            "sqlType": {"id": 4, "name": 12},
            "table": "checked",
            "ts": es,
            "type": "INSERT",
        }
    )


def checked_marks(pipeline, home: str, schema_suffix: str = "") -> dict[str, str]:
    """{property: value} of the checked marks kept on `home` (a model of the pipeline's schema)."""
    rows = pipeline.sql(f"show tblproperties {{s}}{schema_suffix}.{home}")
    return {r["key"]: r["value"] for r in rows if r["key"].startswith("cdc.checked.")}


def compiled_test(pipeline, name: str) -> str:
    found = list((pipeline.work_dir / "target" / "compiled").rglob(f"{name}.sql"))
    assert len(found) == 1, found
    return found[0].read_text(encoding="utf-8")


def results(pipeline) -> dict[str, dict]:
    run = json.loads(
        (pipeline.work_dir / "target" / "run_results.json").read_text(encoding="utf-8")
    )
    return {r["unique_id"].split(".")[2]: r for r in run["results"]}


@pytest.fixture(scope="module")
def pipeline(make_pipeline):
    # (uniqueness by joining the new keys, which by default only large models use, here too)
    pipeline = make_pipeline("checked_since", {"cdc_formats": ["canal"], "cdc_scoped_key_checks_min_bytes": 0},
                             checks="each_build")
    pipeline.write_json = True  # the tests read target/run_results.json
    pipeline.land("canal", [*SAMPLE, "not json"])  # an invalid message: a quarantine row
    pipeline.build()
    return pipeline


def test_a_passing_build_moves_the_marks_and_the_next_reads_only_new_landings(pipeline):
    # the first build checked everything (no marks yet), passed and recorded marks
    first = checked_marks(pipeline, "change_log")
    assert first and all(value.split("|", 1)[1].startswith("canal=") for value in first.values()), (
        first
    )
    pipeline.land("canal", [canal_insert(1, 1_800_000_000_000)])
    pipeline.build()
    compiled = compiled_test(pipeline, ACCOUNTED)
    assert "unioned.landed_at > timestamp'" in compiled, compiled
    assert "landed_at > timestamp'" in compiled_test(pipeline, STAGED)
    assert results(pipeline)[ACCOUNTED]["status"] == "pass"
    second = checked_marks(pipeline, "change_log")
    assert second.keys() == first.keys() and second != first  # moved on to the new batch
    # `dbt test` checks everything (and passes: the marks may move, never back)
    pipeline.dbt("test", "--select", ACCOUNTED)
    assert "landed_at > timestamp'" not in compiled_test(pipeline, ACCOUNTED)
    assert checked_marks(pipeline, "change_log") == second


def rewrite(pipeline, table: str, replaced: dict[str, str] | None = None, where: str = "true",
            added: str = "") -> None:
    """Rewrite `table` (a model's table) by hand, outside dbt: its rows where `where` holds,
    with the columns of `replaced` ({column: SQL expression over the old row}), plus the rows
    of the query `added`."""
    columns = []
    for row in pipeline.sql(f"describe {table}"):
        if not row["col_name"] or row["col_name"].startswith("#"):
            break  # the partition columns' section repeats them
        columns.append(row["col_name"])
    select = ", ".join(f"{(replaced or {}).get(c, c)} as {c}" for c in columns)
    pipeline.sql(f"create table {{s}}_staging.edit_copy as select * from {table}")
    query = f"select {select} from {{s}}_staging.edit_copy where {where}" + (f" union all {added}" if added else "")
    pipeline.sql(f"insert overwrite table {table} {query}")
    pipeline.sql("drop table {s}_staging.edit_copy")


def test_the_accounting_test_looks_up_only_unresolved_changes_in_the_whole_change_log(pipeline):
    redelivered = "{s}_staging.int_redelivered_changes"
    copies_before = len(pipeline.sql(f"select * from {redelivered}"))
    message = canal_insert(10, 1_800_000_000_500)
    pipeline.land("canal", [message])
    pipeline.build()
    # the same message again, in another file: a copy of a change an earlier run logged,
    # found only by the lookup beyond the window
    pipeline.land("canal", [message])
    pipeline.build()
    assert results(pipeline)[ACCOUNTED]["status"] == "pass"
    compiled = compiled_test(pipeline, ACCOUNTED)
    assert "logged.landed_at > timestamp'" in compiled, compiled
    copies = pipeline.sql(f"select kept_copy from {redelivered}")
    assert len(copies) == copies_before + 1 and {"kept_copy": "earlier_run"} in copies, copies

    # a change of the window that the change log does not list (its event written by hand
    # among the repeated copies, which the view leaves out): found, then mended
    pipeline.land("canal", [canal_insert(11, 1_800_000_000_600)])
    pipeline.build("--exclude", ACCOUNTED)
    [hidden] = pipeline.sql(
        "select event_id, change_id, source_format, 'same_run' as kept_copy, landed_at"
        " from {s}_staging.stg_canal__events where event_class = 'change'"
        " and landed_at = (select max(landed_at) from {s}_staging.stg_canal__events)"
    )
    rewrite(pipeline, redelivered, added=(
        f"select '{hidden['event_id']}', '{hidden['change_id']}', 'canal', 'same_run', landed_at"
        " from {s}_staging.stg_canal__events where event_id = " + f"'{hidden['event_id']}'"
    ))
    try:
        pipeline.dbt("build", "--select", ACCOUNTED, expect_success=False)
        assert results(pipeline)[ACCOUNTED]["status"] == "fail"
        assert results(pipeline)[ACCOUNTED]["failures"] == 1
    finally:
        rewrite(pipeline, redelivered, where=f"event_id <> '{hidden['event_id']}'")
    pipeline.build("--select", ACCOUNTED)
    assert results(pipeline)[ACCOUNTED]["status"] == "pass"


def test_the_balance_checks_the_new_batches_against_their_counts(pipeline):
    pipeline.land("canal", [canal_insert(12, 1_800_000_000_700)])
    pipeline.build()
    assert results(pipeline)[BALANCE]["status"] == "pass"
    accounted = compiled_test(pipeline, BALANCE).split("accounted as", 1)[1]
    assert "counted.landed_at > timestamp'" in accounted and "stream_progress" not in accounted, accounted
    batches = "{s}_staging.int_stream_batches"

    def miscount(which: str) -> None:
        """One more control message in the newest or the oldest batch's row, by hand."""
        rewrite(pipeline, batches, {"control_messages": (
            "control_messages + cast(landed_at = (select"
            f" {which}(landed_at) from {{s}}_staging.edit_copy) as bigint)"
        )})

    def mend() -> None:
        rewrite(pipeline, batches, {
            "control_messages": "messages_landed - messages_with_row_changes - quarantined_messages",
        })

    # the new batch miscounted: found by the build
    pipeline.land("canal", [canal_insert(13, 1_800_000_000_800)])
    pipeline.build("--exclude", BALANCE)
    miscount("max")
    try:
        pipeline.dbt("build", "--select", BALANCE, expect_success=False)
        assert results(pipeline)[BALANCE]["status"] == "fail"
    finally:
        mend()
    pipeline.build("--select", BALANCE)
    assert results(pipeline)[BALANCE]["status"] == "pass"
    # an old batch miscounted: behind the marks for a build, found by `dbt test`
    miscount("min")
    try:
        pipeline.land("canal", [canal_insert(14, 1_800_000_000_900)])
        pipeline.build()
        assert results(pipeline)[BALANCE]["status"] == "pass"
        assert not pipeline.dbt("test", "--select", BALANCE, expect_success=False).success
        assert "stream_progress" in compiled_test(pipeline, BALANCE).split("accounted as", 1)[1]
    finally:
        mend()


def test_a_failing_test_keeps_its_marks_until_it_passes(pipeline):
    before = checked_marks(pipeline, "stg_canal__events", "_staging")
    assert before, "the staging accounting test keeps its marks on its first model"
    pipeline.land("canal", [canal_insert(2, 1_800_000_001_000)])
    # the test alone, nothing staged: the new message is not staged, the test fails
    pipeline.dbt("build", "--select", STAGED, expect_success=False)
    assert results(pipeline)[STAGED]["status"] == "fail"
    assert results(pipeline)[STAGED]["failures"] == 1
    assert checked_marks(pipeline, "stg_canal__events", "_staging") == before
    # staged by the next build: it passes, and only then do its marks move
    pipeline.build()
    assert results(pipeline)[STAGED]["status"] == "pass"
    assert checked_marks(pipeline, "stg_canal__events", "_staging") != before


def test_full_checks_find_an_old_edit_the_marks_hide(pipeline):
    # history edited by hand (outside dbt): the invalid message's quarantine row removed
    pipeline.sql("create table {s}.quarantine_copy as select * from {s}.quarantine")
    pipeline.sql(
        "insert overwrite table {s}.quarantine select * from {s}.quarantine_copy where false"
    )
    pipeline.sql("drop table {s}.quarantine_copy")
    pipeline.land("canal", [canal_insert(3, 1_800_000_002_000)])
    # a build checks what is new: the old message is behind the marks
    pipeline.build()
    assert results(pipeline)[ACCOUNTED]["status"] == "pass"
    # full checks read everything and find it, as `dbt test` does
    pipeline.extra_vars["cdc_full_checks"] = True
    try:
        failed = pipeline.dbt("build", "--select", ACCOUNTED, expect_success=False)
    finally:
        del pipeline.extra_vars["cdc_full_checks"]
    assert not failed.success
    assert results(pipeline)[ACCOUNTED]["failures"] == 1
    assert pipeline.dbt("test", "--select", ACCOUNTED, expect_success=False).success is False


def combined_checks_query(pipeline, model: str, layers: str | None = None) -> str:
    """The last query that counted `model`'s column checks together (checks_together.sql):
    over `model`, or over the delta layer of its layers model `layers`. (One line each; a
    state test's own SQL names the view `checked_rows` too, on a line of its own.)"""
    log = (pipeline.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8", errors="replace")
    sources = [f".{model} as checked_rows"]
    if layers:
        sources.append(f"_staging.{layers} where state_layer = 'delta' and table_id is not null) as checked_rows")
    queries = [line for line in log.splitlines() if line.startswith("select ") and any(s in line for s in sources)]
    assert queries, f"no combined checks query of {model} in the log"
    return queries[-1]


def test_column_checks_of_appended_models_count_new_rows_and_find_a_new_duplicate(pipeline):
    stg = "stg_canal__events"
    pipeline.land("canal", [canal_insert(4, 1_800_000_003_000)])
    pipeline.build()
    # the staging model's checks (rows only appended) passed on the new rows only
    marks = checked_marks(pipeline, stg, "_staging")
    checks = {name: r for name, r in results(pipeline).items()
              if name.startswith(("unique_" + stg, "not_null_" + stg, "accepted_values_" + stg))}
    assert len(checks) == 7 and all(r["status"] == "pass" for r in checks.values()), checks
    assert len(marks) >= 8, marks  # each check's marks, and the accounting test's
    query = combined_checks_query(pipeline, stg)
    assert "landed_at > timestamp'" in query and "as checked_rows where" in query, query
    assert "count(distinct event_id)" not in query, query  # new keys joined, not all counted

    # Rows written by hand with a landing time after the marks, each with a new valid batch
    # (so the models change and no check is answered from memory): what the checks see.
    columns = [r["col_name"] for r in pipeline.sql(f"describe {{s}}_staging.{stg}")]
    columns = columns[: columns.index("")] if "" in columns else columns
    columns = [c for c in columns if not c.startswith("#")]
    later = "timestamp'2100-01-01 00:00:00'"

    def write_by_hand(replaced: dict[str, str], es: int) -> dict[str, dict]:
        replaced = {"landed_at": f"{later} as landed_at", **replaced}
        pipeline.sql(
            f"insert into {{s}}_staging.{stg} select {', '.join(replaced.get(c, c) for c in columns)}"
            f" from {{s}}_staging.{stg} where event_class = 'change' and landed_at < {later} limit 1"
        )
        pipeline.land("canal", [canal_insert(es, es)])
        failed = {}
        try:
            # the staging model and the change log one after the other (a failed staging
            # check would skip the change log)
            for model in (stg, "change_log"):
                pipeline.dbt("build", "--select", model, expect_success=False)
                failed.update({name: r for name, r in results(pipeline).items() if r["status"] == "fail"})
            return failed
        finally:  # the rows written by hand go again
            pipeline.sql(f"create table {{s}}_staging.kept as select * from {{s}}_staging.{stg} where landed_at < {later}")
            pipeline.sql(f"insert overwrite table {{s}}_staging.{stg} select * from {{s}}_staging.kept")
            pipeline.sql("drop table {s}_staging.kept")

    # a new row that repeats an old event id and change id: found, with dbt's counts
    failed = write_by_hand({}, 1_800_000_004_000)
    assert failed[f"unique_{stg}_event_id"]["failures"] == 1
    assert failed["unique_change_log_change_id"]["failures"] == 1
    # a new change whose operation is unknown and whose sort key is a character short
    failed = write_by_hand({
        "event_id": "concat(event_id, '-short') as event_id",
        "change_id": "concat(change_id, '-short') as change_id",
        "operation": "'bogus' as operation",
        "sort_key": "substring(sort_key, 1, length(sort_key) - 1) as sort_key",
    }, 1_800_000_005_000)
    assert "as checked_rows where" in combined_checks_query(pipeline, "change_log")
    found = {name.split("_change_log_")[0]: r for name, r in failed.items()
             if "_change_log_" in name and not name.startswith("assert_")}
    assert set(found) == {"accepted_values", "is_fixed_width_per_group"}, failed
    assert all(r["failures"] == 1 for r in found.values()), found
    # a small model by default: uniqueness counted over every row, in the one query
    del pipeline.extra_vars["cdc_scoped_key_checks_min_bytes"]
    # (other vars: every check counts everything once, and the accounting tests would find
    # the quarantine row an earlier test removed by hand: the staging model's checks only)
    for es in (1_800_000_006_000, 1_800_000_007_000):
        pipeline.land("canal", [canal_insert(es // 1_000_000, es)])
        pipeline.dbt("build", "--select", stg, "--exclude", "test_type:singular")
    query = combined_checks_query(pipeline, stg)
    assert "count(distinct event_id)" in query and "landed_at > timestamp'" in query, query
    assert "as checked_rows where" not in query, query


def base_through(pipeline) -> dict[str, str]:
    """{layers model: its `cdc.base_through` property} (record_base_layer_marks)."""
    found = {}
    for model in LAYERS:
        rows = pipeline.sql(f"show tblproperties {{s}}_staging.{model}")
        found[model] = {r["key"]: r["value"] for r in rows}.get("cdc.base_through")
    return found


def edit_state(pipeline, layer: str, key: dict, **values: str) -> None:
    """Write `values` ({column: text}) into one row of current_state's layers by hand
    (outside dbt)."""
    pipeline.sql("create table {s}_staging.layers_copy as select * from {s}_staging.int_current_state_layers")
    columns = list(pipeline.sql("select * from {s}_staging.layers_copy limit 1")[0])
    edited = {
        column: f"case when state_layer = '{layer}' and table_id = '{key['table_id']}'"
        f" and row_key = '{key['row_key']}' then '{value}' else {column} end as {column}"
        for column, value in values.items()
    }
    pipeline.sql(
        "insert overwrite table {s}_staging.int_current_state_layers select "
        + ", ".join(edited.get(c, c) for c in columns)
        + " from {s}_staging.layers_copy"
    )
    pipeline.sql("drop table {s}_staging.layers_copy")


def state_row(pipeline, layer: str, row_key: str) -> dict:
    return pipeline.sql(
        "select table_id, row_key, sort_key, last_operation from {s}_staging.int_current_state_layers"
        f" where state_layer = '{layer}' and table_id = 'store.checked' and row_key = '{row_key}'"
    )[0]


def checked_rows_source(pipeline, view: str) -> str:
    """What the last combined query of `view`'s column checks read: its layers model's delta
    layer, or the whole view."""
    query = combined_checks_query(pipeline, view, f"int_{view}_layers")
    return "delta" if "state_layer = 'delta'" in query else "view"


# the primary keys of the layer tables, as their combined checks count them
LAYER_KEYS = ("state_layer, table_id, row_key)", "state_layer, table_id, row_key, change_id, is_deleted)")


def layer_checks_source(pipeline) -> list[str]:
    """What the last combined checks of each layer table (LAYERS) counted: its `delta` layer or
    the `whole` table."""
    log = (pipeline.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8", errors="replace")
    found = []
    for layers, key in zip(LAYERS, LAYER_KEYS):
        queries = [line for line in log.splitlines()
                   if line.startswith("select ") and f"count(distinct struct({key}" in line]
        assert queries, f"no combined checks query of {layers} in the log"
        if f"_staging.{layers} where state_layer = 'delta' and table_id is not null) as checked_rows" in queries[-1]:
            found.append("delta")
        elif f"_staging.{layers} as checked_rows" in queries[-1]:
            found.append("whole")
        else:
            found.append(queries[-1])
    return found


def test_state_tests_check_the_changed_keys_until_a_compaction(make_pipeline):
    # a base layer of 20 keys, compacted once the delta layer holds more than 20 rows
    pipeline = make_pipeline("checked_keys", {"cdc_formats": ["canal"], "cdc_state_delta_ratio": 1.0},
                             checks="each_build")
    pipeline.write_json = True  # the tests read target/run_results.json
    pipeline.land("canal", [canal_insert(i, 1_800_000_000_000 + i * 1_000) for i in range(1, 21)])
    pipeline.build()
    first = base_through(pipeline)
    assert all(value and value.startswith("canal=") for value in first.values()), first

    pipeline.land("canal", [canal_insert(21, 1_800_000_021_000)])
    pipeline.build()
    for name in (CURRENT, HISTORY):
        assert results(pipeline)[name]["status"] == "pass"
        assert "left semi join checked_keys" in compiled_test(pipeline, name), name
    assert base_through(pipeline) == first  # the delta layer only
    # the views' column checks counted their delta layer's rows (meta cdc_state_layers_model),
    # rows the view shows as they are
    assert checked_rows_source(pipeline, "current_state") == "delta"
    assert checked_rows_source(pipeline, "row_history") == "delta"
    # and so did the layer tables' own checks (their primary keys among them)
    assert layer_checks_source(pipeline) == ["delta", "delta"]
    for view, layers in (("current_state", LAYERS[0]), ("row_history", LAYERS[1])):
        columns = ", ".join(r["col_name"] for r in pipeline.sql(f"describe {{s}}.{view}"))
        assert pipeline.sql(  # (as JSON text: set operations take no map columns)
            f"select to_json(struct({columns})) as r from {{s}}_staging.{layers}"
            f" where state_layer = 'delta' and table_id is not null"
            f" except all select to_json(struct({columns})) as r from {{s}}.{view}"
        ) == [], view

    untouched, touched = state_row(pipeline, "base", "1"), state_row(pipeline, "delta", "21")
    # Rows edited by hand (outside dbt): in the delta layer, and of a key in the base layer
    # that no later change touches. The next build's scoped checks find the first only;
    # `dbt test` checks every key and finds the second.
    edit_state(pipeline, "delta", touched, sort_key="0", last_operation="bogus")
    edit_state(pipeline, "base", untouched, sort_key="0", deleted_by="bogus")
    # (26 new keys: the delta layer then outgrows the base layer's 20 rows)
    pipeline.land("canal", [canal_insert(i, 1_800_000_000_000 + i * 1_000) for i in range(22, 48)])
    pipeline.dbt("build", expect_success=False)
    assert results(pipeline)[CURRENT]["status"] == "fail"
    assert results(pipeline)[CURRENT]["failures"] == 1
    assert "left semi join checked_keys" in compiled_test(pipeline, CURRENT)
    assert results(pipeline)[OPERATION_CHECK]["status"] == "fail"
    assert results(pipeline)[OPERATION_CHECK]["failures"] == 1
    assert results(pipeline)[DELETED_BY_CHECK]["status"] == "pass"
    assert checked_rows_source(pipeline, "current_state") == "delta"
    assert base_through(pipeline) == first  # no compaction yet
    edit_state(pipeline, "delta", touched, sort_key=touched["sort_key"], last_operation=touched["last_operation"])
    assert not pipeline.dbt("test", "--select", CURRENT, DELETED_BY_CHECK, expect_success=False).success
    assert results(pipeline)[CURRENT]["failures"] == 1
    assert results(pipeline)[DELETED_BY_CHECK]["failures"] == 1

    # the next run compacts (rewrites the base layer): its state tests check every key
    pipeline.land("canal", [canal_insert(50, 1_800_000_050_000)])
    pipeline.dbt("build", expect_success=False)
    compacted = base_through(pipeline)
    assert all(compacted[m] > first[m] for m in LAYERS), (first, compacted)
    assert results(pipeline)[CURRENT]["status"] == "fail"
    assert results(pipeline)[CURRENT]["failures"] == 1
    assert "left semi join checked_keys" not in compiled_test(pipeline, CURRENT)
    assert results(pipeline)[DELETED_BY_CHECK]["failures"] == 1
    assert checked_rows_source(pipeline, "current_state") == "view"
    assert layer_checks_source(pipeline) == ["whole", "whole"]
