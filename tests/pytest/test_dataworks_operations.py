"""Every documented DataWorks op in one mixed stream: where each one lands (issue: complete
DataWorks / DataHub support). Broken messages end in quarantine and nowhere else."""

from __future__ import annotations

import base64

import pytest

from .dataworks_messages import message

pytestmark = pytest.mark.dbt

TYPES = [("id", "LONG"), ("flag", "BOOLEAN"), ("ratio", "DOUBLE"), ("born", "DATE"), ("blob", "BYTES"), ("name", "STRING")]
KV = [("id", "LONG"), ("v", "STRING")]


def seq(n: int) -> str:
    return str(1700000000000000000 + n)


def kv(op, table, n, before=None, after=None, **extra):
    return message(op, table, columns=KV, primary_key=["id"], before=before, after=after, sequence_id=seq(n),
                   event_time=1700000000000 + n * 1000, **extra)


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
]

BROKEN = {
    "not_json": '{"schema": {"source": {"dbName": "db", "tableName": "t"}}, "payload": {"op": "INSERT", "after": ',
    "type_clash": kv("INSERT", "broken", 30, after={"id": 1, "v": "a"}).replace('"eventTime": 1700000030000', '"eventTime": "yesterday"'),
    "missing_operation": '{"schema": {}, "payload": {"sequenceId": "1"}}',
    "unknown_operation": kv("insert", "broken", 31, after={"id": 1, "v": "a"}),
    "missing_table": kv("INSERT", None, 32, after={"id": 1, "v": "a"}),
    "missing_after_image": kv("INSERT", "broken", 33),
    "missing_before_image": kv("DELETE", "broken", 34),
    "missing_key": kv("INSERT", "broken", 35, after={"v": "no id"}),
}


@pytest.fixture(scope="module")
def mixed(make_pipeline):
    pipeline = make_pipeline("dwops")
    pipeline.land("dataworks", MIXED_STREAM + list(BROKEN.values()))
    # a late insert for the truncated table, positioned before the truncate: stays deleted
    pipeline.land("dataworks", [kv("INSERT", "trunc", 8, after={"id": 4, "v": "late"})])
    pipeline.build()
    return pipeline


def state(pipeline, table):
    return {r["row_key"]: r for r in pipeline.sql(f"select * from {{s}}.current_state where table_id = 'db.{table}'")}


def test_quarantine_holds_exactly_the_broken_messages(mixed):
    rows = mixed.sql("select reason_code, raw_value from {s}.quarantine")
    assert sorted(r["reason_code"] for r in rows) == sorted(BROKEN)
    for row in rows:
        assert row["raw_value"] == BROKEN[row["reason_code"]]


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
    # 5 transaction markers + 1 heartbeat + 2 clearing + 5 DDL
    assert progress["control_events"] == 13
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
