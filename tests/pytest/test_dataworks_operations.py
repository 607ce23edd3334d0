"""Every documented DataWorks op in one mixed stream: where each one lands (issue: complete
DataWorks / DataHub support). Broken messages end in quarantine and nowhere else."""

from __future__ import annotations

import base64
import json

import pytest

from .dataworks_messages import message

pytestmark = pytest.mark.dbt
# Only the format the tests land: the other formats' empty models add build time, not coverage.
ONLY_DATAWORKS = {"cdc_formats": ["dataworks"]}

TYPES = [("id", "LONG"), ("flag", "BOOLEAN"), ("ratio", "DOUBLE"), ("born", "DATE"), ("blob", "BYTES"), ("name", "STRING")]
KV = [("id", "LONG"), ("v", "STRING")]


def seq(n: int) -> str:
    return str(1700000000000000000 + n)


def kv(op, table, n, before=None, after=None, **extra):
    extra.setdefault("sequence_id", seq(n))
    return message(op, table, columns=KV, primary_key=["id"], before=before, after=after,
                   event_time=1700000000000 + n * 1000, **extra)


def edited(raw: str, edit) -> str:
    """A builder message changed by `edit(parsed_message)`."""
    parsed = json.loads(raw)
    edit(parsed)
    return json.dumps(parsed, ensure_ascii=False)


DATES = [("id", "LONG"), ("d_ms", "DATE"), ("d_us", "DATE"), ("d_ns", "DATE"), ("d_18", "DATE"), ("d_max", "DATE"), ("d_text", "DATE")]


MIXED_STREAM = [
    # all six field types
    message("INSERT", "types", columns=TYPES, primary_key=["id"], sequence_id=seq(1), after={
        "id": 9007199254740993, "flag": True, "ratio": 1.5, "born": 1605339932000,
        "blob": base64.b64encode("测试text123".encode()).decode(), "name": "x"}),
    # Oracle table without primary key: keyed by rowid, scn kept
    message("INSERT", "EMP", db="ORCL", schema_name="HR", db_type="Oracle", columns=[("ENAME", "STRING"), ("rowid", "STRING")],
            sequence_id=seq(2), scn="88123", after={"ENAME": "KING", "rowid": "AAIUMPAAFAACxExAAE"}),
    # UPDATE_BEFORE spelling, paired with its after half
    kv("INSERT", "spelling", 3, after={"id": 1, "v": "a"}),
    kv("UPDATE_BEFORE", "spelling", 4, before={"id": 1, "v": "a"}),
    kv("UPDATE_AFTER", "spelling", 4, after={"id": 1, "v": "b"}),
    # primary-key change in a one-message update
    kv("INSERT", "rekey", 5, after={"id": 1, "v": "a"}),
    kv("UPDATE_AFTER", "rekey", 6, before={"id": 1, "v": "a"}, after={"id": 2, "v": "a"}),
    # truncate: rows before it are deleted, a row after it lives
    kv("INSERT", "trunc", 7, after={"id": 1, "v": "old"}),
    kv("INSERT", "trunc", 8, after={"id": 2, "v": "old"}),
    kv("TRUNCATE", "trunc", 9, ddl={"text": "truncate table trunc"}),
    kv("INSERT", "trunc", 10, after={"id": 3, "v": "new"}),
    # erase (drop table)
    kv("INSERT", "dropme", 11, after={"id": 1, "v": "x"}),
    kv("ERASE", "dropme", 12, ddl={"text": "drop table dropme"}),
    # DDL kinds
    kv("CREATE", "ddl", 13, ddl={"text": "create table ddl (id bigint primary key)"}),
    kv("QUERY", "ddl", 14, ddl={"text": "set names utf8"}),
    kv("RENAME", "ddl", 15, ddl={"text": "rename table ddl to ddl2"}),
    kv("CINDEX", "ddl", 16, ddl={"text": "create index i on ddl (v)"}),
    kv("DINDEX", "ddl", 17, ddl={"text": "drop index i on ddl"}),
    # transaction markers
    kv("TRANSACTION_BEGIN", "txn", 18),
    kv("GTID", "txn", 19),
    kv("TRANSACTION_END", "txn", 20),
    kv("XACOMMIT", "txn", 21),
    kv("XAROLLBACK", "txn", 22),
    kv("MHEARTBEAT", None, 23),
    # identifiers from data are data: a table and columns named like an injection attempt
    message("INSERT", "x'; drop table change_log; --", db="db`", columns=[("id", "LONG"), ('we"ird', "STRING"), ("back`tick", "STRING")],
            primary_key=["id"], sequence_id=seq(24), after={"id": 7, 'we"ird': "'); --", "back`tick": "${jndi:x}"}),
    # times in other units than the documented ms: a 19-digit (ns) event time used to fail
    # the whole run (timestamp_millis overflows), as did an 18-digit DATE value
    message("INSERT", "times", columns=DATES, primary_key=["id"], sequence_id=seq(25),
            event_time=1605339932000123456, system_time=1605339932000123456, after={
                "id": 1, "d_ms": 1605339932000, "d_us": 1605339932000123, "d_ns": 1605339932000123456,
                "d_18": 999999999999999999, "d_max": 99999999999999999999999, "d_text": "not a number"}),
    message("INSERT", "times", columns=DATES[:2], primary_key=["id"], sequence_id=seq(26),
            event_time=1605339932, after={"id": 2, "d_ms": 2678400000}),  # seconds; a 1970 date
    message("INSERT", "times", columns=DATES[:2], primary_key=["id"], sequence_id=seq(27),
            event_time="1605339932000", system_time="1605339933000",  # quoted numbers
            after={"id": 3, "d_ms": 253402214400000}),  # 9999-12-31, not microseconds
    # op UPDATE (seed 000's Blob template): one message with both images, or a half
    kv("INSERT", "upd", 28, after={"id": 1, "v": "a"}),
    kv("UPDATE", "upd", 29, before={"id": 1, "v": "a"}, after={"id": 1, "v": "b"}),
    kv("UPDATE_BEFOR", "upd", 30, before={"id": 1, "v": "b"}),
    kv("UPDATE", "upd", 30, after={"id": 1, "v": "c"}),
    kv("UPDATE", "upd", 31, before={"id": 1, "v": "c"}),
    kv("UPDATE", "upd", 31, after={"id": 1, "v": "d"}),
    # DDL naming only the database is a schema change, not a broken message
    kv("QUERY", None, 32, ddl={"text": "create database db"}),
    kv("CREATE", None, 33, ddl={"text": "create database db2"}),
    # "primaryKey": [] falls back to var('cdc_primary_keys') like null does
    message("INSERT", "emptypk", columns=KV, primary_key=[], sequence_id=seq(34), after={"id": 5, "v": "x"}),
    # no schema.dataColumn: every column is `string`; type names in another case still map
    edited(kv("INSERT", "notypes", 35, after={"id": 1, "v": "x"}), lambda m: m["schema"].pop("dataColumn")),
    message("INSERT", "lowertypes", columns=[("id", "long"), ("born", "date"), ("ok", "Boolean")], primary_key=["id"],
            sequence_id=seq(36), after={"id": 1, "born": 1605339932000, "ok": True, "extra": "not declared"}),
]

BROKEN = [
    ("not_json", '{"schema": {"source": {"dbName": "db", "tableName": "t"}}, "payload": {"op": "INSERT", "after": '),
    ("type_clash", kv("INSERT", "broken", 40, after={"id": 1, "v": "a"}).replace('"primaryKey": ["id"]', '"primaryKey": "id"')),
    ("missing_operation", '{"schema": {}, "payload": {"sequenceId": "1"}}'),
    ("unknown_operation", kv("insert", "broken", 41, after={"id": 1, "v": "a"})),
    ("missing_table", kv("INSERT", None, 42, after={"id": 1, "v": "a"})),
    ("missing_table", kv("TRUNCATE", None, 43, ddl={"text": "truncate table x"})),
    ("missing_after_image", kv("INSERT", "broken", 44)),
    ("missing_before_image", kv("DELETE", "broken", 45)),
    ("missing_key", kv("INSERT", "broken", 46, after={"v": "no id"})),
    # no usable sequenceId: a change cannot be ordered, a half not paired, a truncate clears nothing
    ("missing_position", kv("INSERT", "broken", 47, after={"id": 1, "v": "a"}, sequence_id=None)),
    ("missing_position", kv("UPDATE_BEFOR", "broken", 48, before={"id": 1, "v": "a"}, sequence_id=None)),
    ("missing_position", kv("UPDATE_AFTER", "broken", 49, after={"id": 1, "v": "b"}, sequence_id="")),
    ("missing_position", kv("TRUNCATE", "trunc", 50, ddl={"text": "truncate table trunc"}, sequence_id="n/a")),
]


@pytest.fixture(scope="module")
def mixed(make_pipeline):
    pipeline = make_pipeline("dwops", {**ONLY_DATAWORKS, "cdc_primary_keys": {"db.emptypk": ["id"]}})
    pipeline.land("dataworks", MIXED_STREAM + [raw for _, raw in BROKEN])
    # a late insert for the truncated table, positioned before the truncate: stays deleted
    pipeline.land("dataworks", [kv("INSERT", "trunc", 8, after={"id": 4, "v": "late"})])
    pipeline.build()
    return pipeline


def state(pipeline, table):
    return {r["row_key"]: r for r in pipeline.sql(f"select * from {{s}}.current_state where table_id = 'db.{table}'")}


def test_quarantine_holds_exactly_the_broken_messages(mixed):
    rows = mixed.sql("select reason_code, raw_value from {s}.quarantine")
    assert sorted((r["reason_code"], r["raw_value"]) for r in rows) == sorted(BROKEN)



# The specific cause of each broken message (quarantine.reason_detail, docs/quarantine.md).
DETAILS = [
    ("not_json", "cut short: the text ends inside an object (96 characters)"),
    ("type_clash", "fields of the wrong type: schema.primaryKey (expected an array)"),
    ("missing_operation", "the message names no operation"),
    ("unknown_operation", 'operation "insert" is not one format dataworks documents'),
    ("missing_table", "INSERT without a table name (database db)"),
    ("missing_table", "TRUNCATE without a table name (database db)"),
    ("missing_after_image", "INSERT without an after image"),
    ("missing_before_image", "DELETE without a before image"),
    ("missing_key", 'no value for key column id in the after image (key ["id"])'),
    ("missing_position", "INSERT without a vendor position: `sequenceId` is missing or not a number"),
    ("missing_position", "UPDATE_BEFOR without a vendor position: `sequenceId` is missing or not a number"),
    ("missing_position", "UPDATE_AFTER without a vendor position: `sequenceId` is missing or not a number"),
    ("missing_position", "TRUNCATE without a vendor position: `sequenceId` is missing or not a number"),
]


def test_quarantine_says_why_each_message_was_set_aside(mixed):
    rows = mixed.sql("select reason_code, reason_detail, raw_value from {s}.quarantine")
    order = {raw: n for n, (_, raw) in enumerate(BROKEN)}
    assert [(r["reason_code"], r["reason_detail"]) for r in sorted(rows, key=lambda r: order[r["raw_value"]])] == DETAILS

def test_six_field_types(mixed):
    change = mixed.sql("select * from {s}.change_log where table_id = 'db.types'")[0]
    assert change["column_types"] == {"id": "bigint", "flag": "boolean", "ratio": "double", "born": "timestamp", "blob": "binary", "name": "string"}
    after = change["after"]
    assert after["id"] == "9007199254740993" and after["flag"] == "true" and after["ratio"] == "1.5"
    assert after["born"] == "2020-11-14 07:45:32.000"
    decoded = mixed.sql("select cdc_decode_base64(after['blob']).value_text as text from {s}.change_log where table_id = 'db.types'")
    assert decoded[0]["text"] == "测试text123"


def test_oracle_rowid_and_scn(mixed):
    change = mixed.sql("select * from {s}.change_log where source_table = 'EMP'")[0]
    assert change["table_id"] == "ORCL.HR.EMP" and change["source_schema"] == "HR" and change["source_system"] == "oracle"
    assert change["row_key"] == "AAIUMPAAFAACxExAAE" and change["row_key_kind"] == "row_id"
    assert change["source_metadata"]["scn"] == "88123"


def test_update_before_spelling_pairs(mixed):
    rows = mixed.sql("select operation, before, after from {s}.change_log where table_id = 'db.spelling' order by sort_key")
    assert [r["operation"] for r in rows] == ["insert", "update"]
    assert rows[1]["before"]["v"] == "a" and rows[1]["after"]["v"] == "b"
    assert state(mixed, "spelling")["1"]["row_image"]["v"] == "b"


def test_primary_key_change_deletes_the_old_key(mixed):
    rows = state(mixed, "rekey")
    assert rows["1"]["is_deleted"] and not rows["2"]["is_deleted"]
    change = mixed.sql("select previous_row_key from {s}.change_log where table_id = 'db.rekey' and operation = 'update'")
    assert change == [{"previous_row_key": "1"}]


def test_truncate_deletes_rows_before_it_only(mixed):
    rows = state(mixed, "trunc")
    assert {k: (r["is_deleted"], r["deleted_by"]) for k, r in rows.items()} == {
        "1": (True, "truncate"), "2": (True, "truncate"), "3": (False, None), "4": (True, "truncate"),
    }


def test_erase_drops_the_table_rows(mixed):
    assert state(mixed, "dropme")["1"]["deleted_by"] == "truncate"
    ddl = mixed.sql("select operation, clears_table from {s}.schema_changes where table_id = 'db.dropme'")
    assert ddl == [{"operation": "drop", "clears_table": True}]


def test_ddl_kinds_land_in_schema_changes(mixed):
    rows = mixed.sql("select operation, ddl_text, clears_table from {s}.schema_changes where table_id = 'db.ddl' order by sort_key")
    assert [r["operation"] for r in rows] == ["create", "query", "rename", "create_index", "drop_index"]
    assert not any(r["clears_table"] for r in rows)


def test_control_events_are_counted_in_stream_progress(mixed):
    progress = mixed.sql("select * from {s}.stream_progress")[0]
    # 5 transaction markers + 1 heartbeat + 2 clearing + 5 DDL + 2 DDL without a table
    assert progress["control_events"] == 15
    assert progress["quarantined_events"] == len(BROKEN)
    assert progress["messages_landed"] == len(MIXED_STREAM) + len(BROKEN) + 1


def test_every_message_is_accounted_for(mixed):
    counts = mixed.sql(
        """select
             (select count(*) from {s}_landing.raw_dataworks) as landed,
             (select count(distinct message_id) from {s}.change_log) as with_changes,
             (select count(*) from {s}_staging.stg_dataworks__events
               where event_class = 'update_half' and operation = 'update_before') as consumed_before_halves,
             (select count(*) from {s}.unpaired_update_halves) as held,
             (select count(*) from {s}_staging.stg_dataworks__events
               where event_class in ('schema_change', 'truncate', 'transaction', 'heartbeat')) as control,
             (select count(*) from {s}.quarantine) as quarantined"""
    )[0]
    assert counts["held"] == 0
    assert counts["landed"] == (counts["with_changes"] + counts["consumed_before_halves"]
                                + counts["control"] + counts["quarantined"])


def test_identifiers_from_data_are_handled_as_data(mixed):
    rows = mixed.sql("select table_id, after from {s}.change_log where source_database = 'db`'")
    assert rows == [{"table_id": "db`.x'; drop table change_log; --",
                     "after": {"id": "7", 'we"ird': "'); --", "back`tick": "${jndi:x}"}}]
    assert mixed.sql("select count(*) as n from {s}.change_log")[0]["n"] > 1


def test_times_in_other_units_never_fail_the_run(mixed):
    rows = {r["row_key"]: r for r in mixed.sql("select * from {s}.change_log where table_id = 'db.times'")}
    assert sorted(rows) == ["1", "2", "3"]
    ns = rows["1"]
    assert str(ns["committed_at"]) == "2020-11-14 07:45:32.000123"
    assert str(ns["captured_at"]) == "2020-11-14 07:45:32.000123"
    assert ns["after"]["d_ms"] == "2020-11-14 07:45:32.000"
    assert ns["after"]["d_us"] == "2020-11-14 07:45:32.000"
    assert ns["after"]["d_ns"] == "2020-11-14 07:45:32.000"
    assert ns["after"]["d_18"] == "2001-09-09 01:46:39.999"  # no year 0001-9999 in ms or µs: ns
    assert ns["after"]["d_max"] == "99999999999999999999999"  # no time in any unit: kept as text
    assert ns["after"]["d_text"] == "not a number"
    assert str(rows["2"]["committed_at"]) == "2020-11-14 07:45:32"  # 10-digit seconds
    assert rows["2"]["after"]["d_ms"] == "1970-02-01 00:00:00.000"  # DATE is ms, never seconds
    quoted = rows["3"]
    assert str(quoted["committed_at"]) == "2020-11-14 07:45:32" and str(quoted["captured_at"]) == "2020-11-14 07:45:33"
    assert quoted["after"]["d_ms"] == "9999-12-31 00:00:00.000"
    assert quoted["source_metadata"]["checkpoint_time"] == "1605339932000"


def test_op_update_is_an_update_or_a_half(mixed):
    rows = mixed.sql("select operation, vendor_operation, before, after from {s}.change_log where table_id = 'db.upd' order by sort_key")
    assert [(r["operation"], r["before"] and r["before"]["v"], r["after"]["v"]) for r in rows] == [
        ("insert", None, "a"), ("update", "a", "b"), ("update", "b", "c"), ("update", "c", "d"),
    ]
    assert state(mixed, "upd")["1"]["row_image"]["v"] == "d"


def test_ddl_without_a_table_is_a_schema_change(mixed):
    rows = mixed.sql("select operation, table_id, source_database, source_table, ddl_text, clears_table "
                     "from {s}.schema_changes where source_table is null order by sort_key")
    assert rows == [
        {"operation": "query", "table_id": "db", "source_database": "db", "source_table": None,
         "ddl_text": "create database db", "clears_table": False},
        {"operation": "create", "table_id": "db", "source_database": "db", "source_table": None,
         "ddl_text": "create database db2", "clears_table": False},
    ]


def test_empty_primary_key_falls_back_to_configured_keys(mixed):
    change = mixed.sql("select * from {s}.change_log where table_id = 'db.emptypk'")[0]
    assert change["primary_key_columns"] == ["id"] and change["row_key"] == "5" and change["row_key_kind"] == "primary_key"


def test_column_types_without_or_with_other_case_types(mixed):
    untyped = mixed.sql("select column_types from {s}.change_log where table_id = 'db.notypes'")[0]
    assert untyped["column_types"] == {"id": "string", "v": "string"}
    typed = mixed.sql("select column_types, after from {s}.change_log where table_id = 'db.lowertypes'")[0]
    assert typed["column_types"] == {"id": "bigint", "born": "timestamp", "ok": "boolean", "extra": "string"}
    assert typed["after"]["born"] == "2020-11-14 07:45:32.000"


def test_truncate_without_position_clears_nothing(mixed):
    # the quarantined truncate (sequenceId "n/a") must not act: row 3 after the real truncate lives
    assert not state(mixed, "trunc")["3"]["is_deleted"]
    assert mixed.sql("select count(*) as n from {s}.schema_changes where table_id = 'db.trunc'") == [{"n": 1}]
