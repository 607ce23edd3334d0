"""End to end on embedded Spark: DataWorks messages through real dbt builds."""

from __future__ import annotations

import json

import pytest

from .conftest import CONFORMANCE_DIR, fixture_message, record_lines

pytestmark = pytest.mark.dbt
# Only the format the tests land: the other formats' empty models add build time, not coverage.
ONLY_DATAWORKS = {"cdc_formats": ["dataworks"]}

SNAPSHOT_TABLES = ["change_log", "current_state", "schema_changes", "quarantine"]


def snapshot(pipeline) -> dict[str, list[str]]:
    """Every row of the marts as sorted JSON text, to compare two builds."""
    result = {}
    for table in SNAPSHOT_TABLES:
        rows = pipeline.sql(f"select to_json(struct(*)) as row from {{s}}.{table}")
        result[table] = sorted(r["row"] for r in rows)
    return result


@pytest.fixture(scope="module")
def seed_history(make_pipeline):
    """The seeds' own histories, with update halves split across landing batches."""
    pipeline = make_pipeline("seeds", ONLY_DATAWORKS)
    pipeline.land("dataworks", [fixture_message(f"dataworks/{name}.json") for name in [
        "seed000_insert", "seed000_update_before", "seed001_insert", "seed001_update_before",
        "seed000_heartbeat", "seed000_ddl_alter",
    ]])
    pipeline.build()
    after_first = {
        "unpaired": pipeline.sql("select table_id, row_key from {s}.unpaired_update_halves order by table_id"),
        "state": pipeline.sql("select table_id, row_key, row_image, is_deleted from {s}.current_state order by table_id"),
    }
    pipeline.land("dataworks", [fixture_message(f"dataworks/{name}.json") for name in [
        "seed000_update_after", "seed001_update_after", "seed000_delete", "seed001_delete", "seed001_heartbeat",
    ]])
    pipeline.build()
    # a redelivered insert (at-least-once) must neither duplicate nor resurrect the row, and a
    # redelivered after half must not emit its (already emitted) update pair again
    pipeline.land("dataworks", [fixture_message(f"dataworks/{name}.json") for name in [
        "seed000_insert", "seed000_update_after",
    ]])
    pipeline.build()
    return pipeline, after_first


def test_before_half_is_held_until_its_after_half_lands(seed_history):
    pipeline, after_first = seed_history
    assert [r["table_id"] for r in after_first["unpaired"]] == ["pkset_test.pkset_test_no_pk", "yunshi_db.t_shiyu_pk"]
    live = {r["table_id"]: r for r in after_first["state"]}
    assert live["yunshi_db.t_shiyu_pk"]["row_image"]["comment"] == "comment"
    assert pipeline.sql("select * from {s}.unpaired_update_halves") == []


def test_change_log_pairs_halves_into_one_update(seed_history):
    pipeline, _ = seed_history
    rows = pipeline.sql(
        "select operation, row_key, before, after, source_position, committed_at, primary_key_columns "
        "from {s}.change_log where table_id = 'yunshi_db.t_shiyu_pk' order by sort_key"
    )
    assert [r["operation"] for r in rows] == ["insert", "update", "delete"]
    insert, update, delete = rows
    assert insert["row_key"] == '["1","joe"]' and insert["primary_key_columns"] == ["id", "name"]
    assert update["before"] == {"name": "joe", "comment": "comment", "id": "1"}
    assert update["after"] == {"name": "joe", "comment": "com1", "id": "1"}
    assert update["source_position"] == "1605339516000000005"
    assert str(update["committed_at"]) == "2020-11-14 07:45:34"
    assert delete["before"]["comment"] == "com1" and delete["after"] is None


def test_seed_history_ends_with_no_live_row(seed_history):
    pipeline, _ = seed_history
    state = pipeline.sql("select * from {s}.current_state where table_id = 'yunshi_db.t_shiyu_pk'")
    assert len(state) == 1
    assert state[0]["is_deleted"] and state[0]["deleted_by"] == "delete"


def test_table_without_primary_key_is_keyed_by_row_id(seed_history):
    pipeline, after_first = seed_history
    live = {r["table_id"]: r for r in after_first["state"]}
    assert live["pkset_test.pkset_test_no_pk"]["row_image"]["sex"] == "man"
    assert not live["pkset_test.pkset_test_no_pk"]["is_deleted"]
    state = pipeline.sql("select * from {s}.current_state where table_id = 'pkset_test.pkset_test_no_pk'")
    assert len(state) == 1
    row = state[0]
    assert row["row_key"] == "15" and row["row_key_kind"] == "row_id"
    assert row["row_image"]["sex"] == "woman"


def test_seed001_history_ends_deleted(seed_history):
    pipeline, _ = seed_history
    rows = pipeline.sql(
        "select operation, row_key, before, after, source_position from {s}.change_log "
        "where table_id = 'pkset_test.pkset_test_no_pk' order by sort_key"
    )
    assert [(r["operation"], r["source_position"]) for r in rows] == [
        ("insert", "1620457642589000000"), ("update", "1620457642589000001"), ("delete", "1620457642589000002"),
    ]
    assert rows[1]["before"]["sex"] == "man" and rows[1]["after"]["sex"] == "woman"
    assert rows[2]["before"]["sex"] == "woman" and rows[2]["after"] is None
    state = pipeline.sql("select * from {s}.current_state where table_id = 'pkset_test.pkset_test_no_pk'")
    assert [(r["row_key"], r["is_deleted"], r["deleted_by"]) for r in state] == [("15", True, "delete")]


COMPARED = ["change_id", "operation", "vendor_operation", "row_key", "row_key_kind", "previous_row_key", "primary_key_columns",
            "before", "after", "column_types", "committed_at", "captured_at", "source_position"]


def test_update_in_one_message_equals_the_two_halves(seed_history, make_pipeline):
    """Seed 001's "one Kafka record per update" gives the same change_log as its two-message form."""
    halves, _ = seed_history
    one = make_pipeline("seedone", ONLY_DATAWORKS)
    one.land("dataworks", [fixture_message(f"dataworks/{name}.json") for name in [
        "seed001_insert", "seed001_update_in_one", "seed001_delete",
    ]])
    one.build()
    query = ("select " + ", ".join(COMPARED) + " from {s}.change_log "
             "where table_id = 'pkset_test.pkset_test_no_pk' order by sort_key")
    from_one, from_halves = one.sql(query), halves.sql(query)
    assert [r["operation"] for r in from_one] == ["insert", "update", "delete"]
    assert from_one == from_halves
    assert one.sql("select * from {s}.unpaired_update_halves") == [] and one.sql("select * from {s}.quarantine") == []


def test_redelivered_insert_is_kept_once(seed_history):
    pipeline, _ = seed_history
    counts = pipeline.sql("select count(*) as n, count(distinct change_id) as d from {s}.change_log")[0]
    assert counts == {"n": 6, "d": 6}


def test_redelivered_half_leaves_its_pair_emitted_once(seed_history):
    """The third batch's copy of seed 000's after half regroups its pairing group; the pair the
    second build emitted is held already, so no second pair row."""
    pipeline, _ = seed_history
    pairs = pipeline.sql("select pairing_key, count(*) as n from {s}_staging.int_update_halves_paired group by pairing_key")
    assert sorted(r["n"] for r in pairs) == [1, 1]


def dataworks_half(op: str, sequence_id: str, comment: str, event_time: int) -> str:
    """Seed 000's update half (op UPDATE_BEFOR or UPDATE_AFTER) with its own sequenceId."""
    message = json.loads(fixture_message("dataworks/seed000_update_before.json"))
    payload = message["payload"]
    payload.pop("before")
    payload["before" if op == "UPDATE_BEFOR" else "after"] = {"dataColumn": {"name": "joe", "comment": comment, "id": 1}}
    payload.update({"op": op, "sequenceId": sequence_id})
    payload["timestamp"]["eventTime"] = event_time
    return json.dumps(message)


def test_halves_are_looked_up_within_the_new_halves_key_range(make_pipeline):
    """An incremental run looks up the halves of the groups its new halves touch within those
    halves' pairing-key range (macro window_pairing_key_ranges), so Parquet can skip the
    earlier batches' files: a half whose partner landed two batches before still pairs, once;
    the range is the new halves' keys; a batch of other halves leaves the held one held; a
    copy of a change two batches old, landed beside the last half, is left out once; a DDL
    with a ddlMeta in an incremental build is decoded.
    (DataWorks quarantines a sequenceId that is not a number; the keys are written with
    cdc_sql_string, as every value from data.)"""
    pipeline = make_pipeline("halves_range", ONLY_DATAWORKS)
    held_key = "1605339516000000009"
    insert = fixture_message("dataworks/seed000_insert.json")  # sequenceId ...004
    pipeline.land("dataworks", [
        dataworks_half("UPDATE_BEFOR", "1605339516000000001", "a", 1605339934001),
        dataworks_half("UPDATE_AFTER", "1605339516000000001", "b", 1605339934001),
        insert,
        dataworks_half("UPDATE_BEFOR", held_key, "b", 1605339934002),
    ])
    pipeline.build()
    pipeline.land("dataworks", [
        dataworks_half("UPDATE_BEFOR", "1605339516000000003", "b", 1605339934003),
        dataworks_half("UPDATE_AFTER", "1605339516000000003", "c", 1605339934003),
        fixture_message("dataworks/seed000_ddl_alter.json"),
    ])
    pipeline.build()
    # a DDL whose ddlMeta lands in an incremental build is decoded by the UDF
    # (macro window_events_carry_ddl_meta; test_nothing_new.py: a DDL without one is not)
    assert [(r["statement_kind"], r["ddl_meta_error"]) for r in pipeline.sql(
        "select statement_kind, ddl_meta_error from {s}.schema_changes")] == [("alter_table", None)]
    assert [r["pairing_key"] for r in pipeline.sql("select pairing_key from {s}.unpaired_update_halves")] == [held_key]
    pipeline.land("dataworks", [insert, dataworks_half("UPDATE_AFTER", held_key, "d", 1605339934004)])
    pipeline.build()
    compiled = pipeline.work_dir / "target" / "run" / "cdc_changelog" / "models" / "intermediate"
    lookup = (compiled / "int_update_halves_paired.sql").read_text(encoding="utf-8")
    ranges = [line.strip() for line in lookup.splitlines() if "pairing_key between" in line]
    assert ranges == ["where ((halves.source_format = 'dataworks' and halves.pairing_key between "
                      "'1605339516000000009' and '1605339516000000009'))"], ranges
    pairs = pipeline.sql("select pairing_key, count(*) as n from {s}_staging.int_update_halves_paired group by pairing_key")
    assert sorted((r["pairing_key"], r["n"]) for r in pairs) == sorted(
        [("1605339516000000001", 1), ("1605339516000000003", 1), (held_key, 1)])
    assert pipeline.sql("select * from {s}.unpaired_update_halves") == []
    copies = pipeline.sql("select kept_copy, source_format from {s}_staging.int_redelivered_changes")
    assert copies == [{"kept_copy": "earlier_run", "source_format": "dataworks"}], copies
    assert pipeline.sql("select count(*) as n, count(distinct change_id) as d from {s}.change_log") == [{"n": 4, "d": 4}]
    state = pipeline.sql("select row_image from {s}.current_state")
    assert [r["row_image"]["comment"] for r in state] == ["d"]


def test_ddl_lands_in_schema_changes_with_decoded_ddl_meta(seed_history):
    pipeline, _ = seed_history
    rows = pipeline.sql("select * from {s}.schema_changes")
    assert len(rows) == 1
    ddl = rows[0]
    assert ddl["table_id"] == "yunshi_db.t_shiyu_nopk" and ddl["operation"] == "alter"
    assert ddl["ddl_text"] == "alter table t_shiyu_nopk add column holo text"
    assert ddl["statement_kind"] == "alter_table" and ddl["ddl_meta_error"] is None
    assert ddl["columns_added"] == [{"name": "holo", "type": "text"}]


def test_heartbeats_feed_stream_progress(seed_history):
    pipeline, _ = seed_history
    progress = pipeline.sql("select * from {s}.stream_progress")
    assert len(progress) == 1
    assert str(progress[0]["last_heartbeat_at"]) == "2021-05-08 07:07:39"
    assert progress[0]["messages_landed"] == 13


def test_quiet_stream_with_heartbeats_is_alive(make_pipeline):
    # a table that stopped changing while DataWorks keeps sending heartbeats
    pipeline = make_pipeline("quiet", ONLY_DATAWORKS)
    heartbeat = json.loads(fixture_message("dataworks/seed000_heartbeat.json"))
    insert = json.loads(fixture_message("dataworks/seed000_insert.json"))
    change_ms = int(insert["payload"]["timestamp"]["eventTime"])
    heartbeat["payload"]["timestamp"] = {"eventTime": change_ms + 3_600_000, "checkpointTime": change_ms + 3_600_000}
    pipeline.land("dataworks", [json.dumps(insert), json.dumps(heartbeat)])
    pipeline.build()
    row = pipeline.sql("select * from {s}.stream_progress")[0]
    # the heartbeat is the latest sign of life: freshness follows it, not the last change
    assert (row["last_heartbeat_at"] - row["last_change_committed_at"]).total_seconds() == 3600
    assert row["source_alive_at"] == row["last_heartbeat_at"]


def test_dbt_source_freshness_on_the_landing_table(seed_history):
    pipeline, _ = seed_history
    result = pipeline.dbt("source", "freshness", "--select", "source:landing_dataworks.raw_dataworks")
    statuses = {r.node.name: str(r.status) for r in result.result.results if r.node.resource_type == "source"}
    assert statuses == {"raw_dataworks": "pass"}  # landed minutes ago: within warn_after


def test_rebuild_without_new_data_changes_nothing(seed_history):
    pipeline, _ = seed_history
    before = snapshot(pipeline)
    pipeline.build()
    assert snapshot(pipeline) == before


def test_aliyun_conformance_matches_paimon_expectations(make_pipeline):
    """conformance/aliyun: Paimon's AliyunJsonRecordParserTest expectations, file by file."""
    pipeline = make_pipeline("aliyun", ONLY_DATAWORKS)
    expected_lines = [
        line.split("\t")
        for line in (CONFORMANCE_DIR / "aliyun" / "paimon-table-event.expected.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    header, rows = expected_lines[0], expected_lines[1:]
    for row in rows:
        expected = dict(zip(header, row))
        pipeline.land("dataworks", record_lines(CONFORMANCE_DIR / expected["file"]), name=expected["file"].split("/")[-1])
    pipeline.build()
    kinds = {"INSERT": "insert", "UPDATE_AFTER": "update", "DELETE": "delete"}
    for row in rows:
        expected = dict(zip(header, row))
        name = expected["file"].split("/")[-1]
        changes = pipeline.sql(
            "select * from {s}.change_log where origin like '%" + name + "'"
        )
        assert len(changes) == 1, name
        change = changes[0]
        assert change["operation"] == kinds[expected["row_kind"]], name
        assert change["source_database"] == expected["database"]
        assert change["source_table"] == expected["table"]
        assert change["primary_key_columns"] == expected["primary_keys"].split(",")
        image = change["before"] if change["operation"] == "delete" else change["after"]
        derived = json.loads(expected["row_derived"])
        # documented difference: DATE (epoch ms) is canonical timestamp text
        assert image["create_time"] == "2024-11-15 08:58:34.000"
        derived.pop("create_time")
        assert {k: image[k] for k in derived} == derived, name
    assert pipeline.sql("select * from {s}.quarantine") == []
