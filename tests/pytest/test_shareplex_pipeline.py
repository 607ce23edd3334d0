"""SharePlex JSON (as written by DTS, seed 002) end to end: every seed example and where it lands,
`upd` as a partial after image merged over the prior row, order by scn / trans / seq, row keys
(configured key, else Oracle rowid, else row hash), control ops and quarantine reasons.
Two landing batches, two dbt builds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import FIXTURES_DIR, PROJECT_DIR, fixture_message

pytestmark = pytest.mark.dbt


def sp(op, table, data=None, key=None, *, scn, trans="7.0.411499", seq=1, size=1, rowid=None,
       time="2017-06-16T14:24:34", posttime="2017-06-16T14:33:52", **meta_extra) -> str:
    """One SharePlex JSON message (seed 002 field set)."""
    meta = {"time": time, "userid": 84, "op": op, "scn": scn, "rowid": rowid, "trans": trans, "seq": seq,
            "size": size, "table": table, "idx": f"{seq}/{size}", "posttime": posttime, **meta_extra}
    message = {"meta": {k: v for k, v in meta.items() if v is not None}}
    if data is not None:
        message["data"] = data
    if key is not None:
        message["key"] = key
    return json.dumps(message, ensure_ascii=False)


def bare(op, table, data=None, key=None, **meta) -> str:
    """A SharePlex message whose meta carries only what is given (op and table at least)."""
    message = {"meta": {"op": op, "table": table, **meta}}
    if data is not None:
        message["data"] = data
    if key is not None:
        message["key"] = key
    return json.dumps(message, ensure_ascii=False)


def one_line(relative: str) -> str:
    """A verbatim seed example (not valid JSON) as the one-line message a queue would carry."""
    return " ".join(line.strip() for line in (FIXTURES_DIR / relative).read_text(encoding="utf-8").splitlines())


SEED_UPDATE = json.loads(fixture_message("shareplex/seed002_update.json"))
BONUS2 = "AAABO2AAEAAAAFUAAA"
HALVES = [
    sp("UPDATE BEFORE", "HR.BONUS2", {"ENAME": "WARD", "COMM": "10"}, scn="810", trans="7.0.88", seq=1, size=4, rowid=BONUS2),
    sp("update_after", "HR.BONUS2", {"ENAME": "WARD", "COMM": "20"}, scn="810", trans="7.0.88", seq=2, size=4, rowid=BONUS2),
    sp("upd_before", "HR.BONUS2", {"ENAME": "WARD", "COMM": "20"}, scn="810", trans="7.0.88", seq=3, size=4, rowid=BONUS2),
    sp("UpdAfter", "HR.BONUS2", {"ENAME": "WARD", "COMM": "30"}, scn="810", trans="7.0.88", seq=4, size=4, rowid=BONUS2),
]
HALVES_FIRST = HALVES[:3]
ROW_B = "AAATGpAAIAAItcIAAB"

# The seed's update example with the meta fields it elides filled in, after an insert of its row.
COMPLETED_UPDATE = [
    sp("ins", "CL_BIZ1.MIO_LOG", {**SEED_UPDATE["key"], "CG_NO": "G1"}, scn="14589063118800",
       trans="7.0.411500", rowid=ROW_B, time="2017-06-16T15:30:00"),
    sp("upd", "CL_BIZ1.MIO_LOG", SEED_UPDATE["data"], SEED_UPDATE["key"], scn="14589063118900",
       trans="7.0.411501", rowid=ROW_B, time=SEED_UPDATE["meta"]["time"]),
]

FIRST_BATCH = [
    fixture_message("shareplex/seed002_insert.json"),
    fixture_message("shareplex/seed002_update.json"),
    fixture_message("shareplex/seed002_delete.json"),
    *COMPLETED_UPDATE,
    # configured primary key: partial updates merge over the row; a key change moves it
    sp("INSERT", "HR.EMP", {"EMPNO": "7839", "ENAME": "KING", "SAL": "5000"}, scn="100", rowid="AAAEMPAAEAAAAFUAAA"),
    sp("upd", "HR.EMP", {"SAL": "6000"}, {"EMPNO": "7839"}, scn="110", rowid="AAAEMPAAEAAAAFUAAA"),
    sp("upd", "HR.EMP", {"EMPNO": "7840"}, {"EMPNO": "7839"}, scn="120", rowid="AAAEMPAAEAAAAFUAAA"),
    # order: seq within one scn and transaction (seq 3 landed first), scn as a number
    sp("ins", "HR.DEPT", {"DEPTNO": "10", "LOC": "NEW YORK"}, scn="100", rowid="AAADEPAAEAAAAFUAAA"),
    sp("upd", "HR.DEPT", {"LOC": "BOSTON"}, {"DEPTNO": "10", "LOC": "DALLAS"}, scn="150", trans="7.0.1", seq=3,
       rowid="AAADEPAAEAAAAFUAAA"),
    sp("upd", "HR.DEPT", {"LOC": "DALLAS"}, {"DEPTNO": "10", "LOC": "NEW YORK"}, scn="150", trans="7.0.1", seq=2,
       rowid="AAADEPAAEAAAAFUAAA"),
    # transaction id parts as numbers: 7.0.10 after 7.0.9 within one scn
    sp("ins", "HR.DEPT", {"DEPTNO": "20", "LOC": "X"}, scn="200", rowid="AAADEPAAEAAAAFUAAB"),
    sp("upd", "HR.DEPT", {"LOC": "B"}, {"DEPTNO": "20", "LOC": "A"}, scn="300", trans="7.0.10",
       rowid="AAADEPAAEAAAAFUAAB"),
    sp("upd", "HR.DEPT", {"LOC": "A"}, {"DEPTNO": "20", "LOC": "X"}, scn="300", trans="7.0.9",
       rowid="AAADEPAAEAAAAFUAAB"),
    # delete keyed by rowid
    sp("ins", "HR.DEPT", {"DEPTNO": "30", "LOC": "Y"}, scn="310", rowid="AAADEPAAEAAAAFUAAC"),
    sp("del", "HR.DEPT", {"DEPTNO": "30", "LOC": "Y"}, scn="320", rowid="AAADEPAAEAAAAFUAAC"),
    # column drop: a schema change
    sp("dropcol", "HR.DEPT", {"COLUMN": "BUDGET"}, scn="330"),
    # no key, no rowid: a hash of the row
    sp("ins", "APP.LOG", {"MSG": "hello"}, scn="400"),
    # truncate: rows before it are deleted, a row after it lives
    sp("ins", "HR.TMP", {"ID": "1"}, scn="500", rowid="AAATMPAAEAAAAFUAAA"),
    sp("trunc", "HR.TMP", scn="510"),
    sp("ins", "HR.TMP", {"ID": "2"}, scn="520", rowid="AAATMPAAEAAAAFUAAB"),
    # an update as two messages: the before half now, its after half in the next batch
    sp("ins", "HR.BONUS", {"ENAME": "SMITH", "COMM": "10"}, scn="600", rowid="AAABONAAEAAAAFUAAA"),
    sp("update before", "HR.BONUS", {"ENAME": "SMITH", "COMM": "10"}, scn="610", trans="7.0.77", seq=4,
       rowid="AAABONAAEAAAAFUAAA"),
    # update halves as operations of their own (adjacent seq), one row updated twice in one
    # transaction, op spellings varied; the second after half lands in the next batch
    sp("ins", "HR.BONUS2", {"ENAME": "WARD", "COMM": "10"}, scn="800", rowid="AAABO2AAEAAAAFUAAA"),
    *HALVES_FIRST,
    # a lone after half whose before half never comes: held and listed, never applied
    sp("UPDATE AFTER", "HR.LONE", {"ID": "1", "V": "after"}, scn="900", trans="7.0.99", seq=2,
       rowid="AAALONAAEAAAAFUAAA"),
    # no scn (as the seed's update example): ordered by trans / seq where given, then time
    bare("ins", "HR.NOSCN", {"ID": "1", "V": "a"}, rowid="AAANOSAAEAAAAFUAAA", time="2017-06-16T10:00:00"),
    bare("upd", "HR.NOSCN", {"V": "c"}, {"ID": "1", "V": "b"}, rowid="AAANOSAAEAAAAFUAAA",
         time="2017-06-16T10:00:02"),
    bare("upd", "HR.NOSCN", {"V": "b"}, {"ID": "1", "V": "a"}, rowid="AAANOSAAEAAAAFUAAA",
         time="2017-06-16T10:00:01"),
    # meta with only op and table: landing order decides
    bare("ins", "HR.BARE", {"ID": "5", "V": "x"}),
    bare("upd", "HR.BARE", {"V": "y"}, {"ID": "5", "V": "x"}),
]

BROKEN = {
    "type_clash": sp("ins", "HR.BAD", [{"ID": "1"}], scn="700"),
    "missing_operation": sp(None, "HR.BAD", {"ID": "1"}, scn="701"),
    "unknown_operation": sp("merge", "HR.BAD", {"ID": "1"}, scn="702"),
    "missing_after_image": sp("ins", "HR.BAD", scn="703", rowid="AAABADAAEAAAAFUAAA"),
    "missing_before_image": sp("del", "HR.BAD", scn="704", rowid="AAABADAAEAAAAFUAAA"),
    "missing_key": sp("ins", "HR.EMP", {"EMPNO": None, "ENAME": "NOBODY"}, scn="705"),
}
VERBATIM = [one_line("shareplex/seed002_update_verbatim.txt"), one_line("shareplex/seed002_delete_verbatim.txt")]

# The bundled demo stream (samples/shareplex/) lands cleanly too.
SAMPLES = (PROJECT_DIR / "samples" / "shareplex" / "hr_employees.jsonl").read_text(encoding="utf-8").splitlines()

SECOND_BATCH = [
    # older than the applied update of the same row: kept in the change log, does not win
    sp("upd", "CL_BIZ1.MIO_LOG", {"CNTR_NO": "stale"}, SEED_UPDATE["key"], scn="14589063118850",
       trans="7.0.411500", seq=2, rowid=ROW_B),
    sp("update after", "HR.BONUS", {"ENAME": "SMITH", "COMM": "20"}, scn="610", trans="7.0.77", seq=4,
       rowid="AAABONAAEAAAAFUAAA"),
    # at-least-once: the seed insert delivered again
    fixture_message("shareplex/seed002_insert.json"),
    # the second after half of HR.BONUS2, and its first before half delivered again
    HALVES[3],
    HALVES[0],
]


def land(pipeline, format_id: str, messages: list[str], name: str, stream_name: str | None = None) -> int:
    """Land one file of messages as one batch."""
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.landing import land_files

    if not getattr(pipeline, "landing_tables_created", False):
        pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
        pipeline.landing_tables_created = True
    path = pipeline.work_dir / "landing" / format_id / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(m + "\n" for m in messages), encoding="utf-8")
    return land_files(
        SparkSession.builder.getOrCreate(), format_id, [path], project_dir=PROJECT_DIR,
        landing_schema=f"{pipeline.schema}_landing", stream_name=stream_name,
        scratch_dir=pipeline.work_dir / "scratch", progress=False,
    ).messages_landed


@pytest.fixture(scope="module")
def shareplex(make_pipeline):
    pipeline = make_pipeline("shareplex", {"cdc_formats": ["shareplex"], "cdc_primary_keys": {"HR.EMP": ["EMPNO"]}})
    land(pipeline, "shareplex", FIRST_BATCH + list(BROKEN.values()) + VERBATIM, "batch-1.jsonl")
    land(pipeline, "shareplex", SAMPLES, "samples.jsonl", stream_name="samples")
    pipeline.build()
    pipeline.unpaired_after_first = pipeline.sql("select table_id, row_key from {s}.unpaired_update_halves")
    land(pipeline, "shareplex", SECOND_BATCH, "batch-2.jsonl")
    pipeline.build()
    return pipeline


def state(pipeline, table_id):
    return {r["row_key"]: r for r in pipeline.sql(f"select * from {{s}}.current_state where table_id = '{table_id}'")}


def changes(pipeline, table_id):
    return pipeline.sql(f"select * from {{s}}.change_log where table_id = '{table_id}' order by sort_key")


def test_seed_insert_example(shareplex):
    insert = [c for c in changes(shareplex, "CL_BIZ1.MIO_LOG") if c["row_key"] == "AAATGpAAIAAItcIAAA"]
    assert len(insert) == 1     # delivered twice, kept once
    c = insert[0]
    assert c["operation"] == "insert" and c["vendor_operation"] == "ins"
    assert c["source_schema"] == "CL_BIZ1" and c["source_table"] == "MIO_LOG" and c["source_database"] is None
    assert c["row_key_kind"] == "row_id" and c["primary_key_columns"] == []
    assert c["after"] == {"MIO_LOG_ID": "32539737"} and c["column_types"] == {"MIO_LOG_ID": "string"}
    assert str(c["committed_at"]) == "2017-06-16 14:24:34" and str(c["captured_at"]) == "2017-06-16 14:33:52"
    assert c["source_position"] == "14589063118712/7.0.411499/1" and c["transaction_id"] == "7.0.411499"
    assert c["source_metadata"] == {
        "time": "2017-06-16T14:24:34", "userid": "84", "scn": "14589063118712", "rowid": "AAATGpAAIAAItcIAAA",
        "trans": "7.0.411499", "seq": "1", "size": "11", "idx": "1/11", "posttime": "2017-06-16T14:33:52"}


def test_seed_update_and_delete_examples_land_in_quarantine(shareplex):
    rows = shareplex.sql("select reason_code, raw_value from {s}.quarantine")
    by_raw = {r["raw_value"]: r["reason_code"] for r in rows}
    # as printed (with "…." and a trailing comma) they are not JSON
    assert [by_raw[v] for v in VERBATIM] == ["not_json", "not_json"]
    # the repaired delete example has no table
    assert by_raw[fixture_message("shareplex/seed002_delete.json")] == "missing_table"


def test_seed_update_example_without_scn_lands(shareplex):
    # the repaired update example has only time, op and table in meta: no field is mandatory
    # for ordering (time, then landing order), so it is an update, not quarantined
    raw = fixture_message("shareplex/seed002_update.json")
    assert raw not in {r["raw_value"] for r in shareplex.sql("select raw_value from {s}.quarantine")}
    # (the completed copy of it below has an scn, so a source_position)
    rows = [c for c in changes(shareplex, "CL_BIZ1.MIO_LOG") if c["source_position"] is None]
    assert len(rows) == 1
    c = rows[0]
    assert c["operation"] == "update" and c["row_key_kind"] == "row_hash" and c["after_is_partial"] is True
    assert c["before"] == SEED_UPDATE["key"] and c["after"] == {**SEED_UPDATE["key"], "CNTR_NO": "1171201606"}
    assert str(c["committed_at"]) == "2017-06-16 15:38:13" and c["source_position"] is None


def test_stream_without_scn_is_ordered_by_time_then_landing(shareplex):
    # the upd of 10:00:02 landed before the one of 10:00:01: time decides
    log = changes(shareplex, "HR.NOSCN")
    assert [c["after"]["V"] for c in log] == ["a", "b", "c"]
    assert state(shareplex, "HR.NOSCN")["AAANOSAAEAAAAFUAAA"]["row_image"] == {"ID": "1", "V": "c"}
    # only op and table: landing order; the update moves the hashed row to its new image
    bare_log = changes(shareplex, "HR.BARE")
    assert [c["operation"] for c in bare_log] == ["insert", "update"]
    assert bare_log[1]["previous_row_key"] == bare_log[0]["row_key"]
    live = [r["row_image"] for r in state(shareplex, "HR.BARE").values() if not r["is_deleted"]]
    assert live == [{"ID": "5", "V": "y"}]


def test_upd_after_is_key_overlaid_with_data_and_merges_over_the_row(shareplex):
    rows = [c for c in changes(shareplex, "CL_BIZ1.MIO_LOG") if c["row_key"] == ROW_B]
    assert [c["operation"] for c in rows] == ["insert", "update", "update"]
    update = next(c for c in rows if c["source_position"].startswith("14589063118900"))
    assert update["before"] == SEED_UPDATE["key"]
    assert update["after"] == {**SEED_UPDATE["key"], "CNTR_NO": "1171201606"}
    assert update["after_is_partial"] is True
    assert str(update["committed_at"]) == "2017-06-16 15:38:13"
    live = state(shareplex, "CL_BIZ1.MIO_LOG")[ROW_B]
    # CG_NO is not in `key`: it comes from the inserted row; the late older upd did not win
    assert live["row_image"] == {**SEED_UPDATE["key"], "CNTR_NO": "1171201606", "CG_NO": "G1"}


def test_configured_key_partial_merge_and_key_change(shareplex):
    rows = changes(shareplex, "HR.EMP")
    assert [(c["operation"], c["row_key"], c["previous_row_key"]) for c in rows] == [
        ("insert", "7839", None), ("update", "7839", None), ("update", "7840", "7839")]
    assert rows[0]["primary_key_columns"] == ["EMPNO"] and rows[0]["row_key_kind"] == "primary_key"
    emp = state(shareplex, "HR.EMP")
    assert emp["7839"]["is_deleted"] and emp["7839"]["row_image"] == {"EMPNO": "7839"}
    # the moved row carries what the message carries (documented: a key change of a partial image)
    assert not emp["7840"]["is_deleted"] and emp["7840"]["row_image"] == {"EMPNO": "7840"}
    second = rows[1]
    assert second["after"] == {"EMPNO": "7839", "SAL": "6000"}


def test_order_is_scn_then_transaction_then_seq(shareplex):
    dept = state(shareplex, "HR.DEPT")
    assert dept["AAADEPAAEAAAAFUAAA"]["row_image"] == {"DEPTNO": "10", "LOC": "BOSTON"}
    assert dept["AAADEPAAEAAAAFUAAB"]["row_image"] == {"DEPTNO": "20", "LOC": "B"}
    assert dept["AAADEPAAEAAAAFUAAC"]["is_deleted"] and dept["AAADEPAAEAAAAFUAAC"]["deleted_by"] == "delete"
    locs = [c["after"]["LOC"] for c in changes(shareplex, "HR.DEPT") if c["operation"] == "update"]
    assert locs == ["DALLAS", "BOSTON", "A", "B"]


def test_keyless_row_without_rowid_is_hashed(shareplex):
    log = changes(shareplex, "APP.LOG")
    assert len(log) == 1 and log[0]["row_key_kind"] == "row_hash" and len(log[0]["row_key"]) == 64


def test_truncate_and_column_drop_are_control_events(shareplex):
    tmp = state(shareplex, "HR.TMP")
    assert {r["row_image"]["ID"]: (r["is_deleted"], r["deleted_by"]) for r in tmp.values()} == {
        "1": (True, "truncate"), "2": (False, None)}
    ddl = shareplex.sql("select table_id, vendor_operation, operation, clears_table, source_metadata from {s}.schema_changes where stream_name = 'shareplex' order by table_id")
    assert [(r["table_id"], r["vendor_operation"], r["operation"], r["clears_table"]) for r in ddl] == [
        ("HR.DEPT", "dropcol", "drop_column", False), ("HR.TMP", "trunc", "truncate", True)]
    assert json.loads(ddl[0]["source_metadata"]["data"]) == {"COLUMN": "BUDGET"}


def test_update_halves_pair_across_batches(shareplex):
    assert sorted(shareplex.unpaired_after_first, key=lambda r: r["table_id"]) == [
        {"table_id": "HR.BONUS", "row_key": "AAABONAAEAAAAFUAAA"},
        {"table_id": "HR.BONUS2", "row_key": BONUS2},
        {"table_id": "HR.LONE", "row_key": "AAALONAAEAAAAFUAAA"},
    ]
    # the lone after half stays visible; everything else paired
    assert [(r["table_id"], r["operation"], r["reason_code"]) for r in shareplex.sql(
        "select * from {s}.unpaired_update_halves")] == [("HR.LONE", "update_after", "unpaired_update_after")]
    assert changes(shareplex, "HR.LONE") == []
    update = [c for c in changes(shareplex, "HR.BONUS") if c["operation"] == "update"]
    assert len(update) == 1
    assert update[0]["before"]["COMM"] == "10" and update[0]["after"]["COMM"] == "20"
    assert state(shareplex, "HR.BONUS")["AAABONAAEAAAAFUAAA"]["row_image"]["COMM"] == "20"


def test_update_halves_with_their_own_seq_pair_in_order(shareplex):
    # UPDATE BEFORE seq 1 + UPDATE AFTER seq 2, then seq 3 + seq 4, the same row in one
    # transaction: two updates, in order, the redelivered before half counted once
    updates = [c for c in changes(shareplex, "HR.BONUS2") if c["operation"] == "update"]
    assert [(c["before"]["COMM"], c["after"]["COMM"]) for c in updates] == [("10", "20"), ("20", "30")]
    assert [c["source_position"] for c in updates] == ["810/7.0.88/2", "810/7.0.88/4"]
    assert state(shareplex, "HR.BONUS2")[BONUS2]["row_image"]["COMM"] == "30"


def test_quarantine_reasons(shareplex):
    rows = shareplex.sql("select reason_code, raw_value from {s}.quarantine")
    broken = {r["reason_code"]: r["raw_value"] for r in rows if r["raw_value"] in BROKEN.values()}
    assert broken == BROKEN
    assert len(rows) == len(BROKEN) + 3



# The specific cause of each broken message (quarantine.reason_detail, docs/quarantine.md).
DETAILS = {
    "type_clash": "fields of the wrong type: data (expected an object)",
    "missing_operation": "the message names no operation",
    "unknown_operation": 'operation "merge" is not one format shareplex documents',
    "missing_after_image": "ins without an after image",
    "missing_before_image": "del without a before image",
    "missing_key": 'no value for key column EMPNO in the after image (key ["EMPNO"])',
}


def test_quarantine_says_why_each_message_was_set_aside(shareplex):
    rows = shareplex.sql("select reason_code, reason_detail, raw_value from {s}.quarantine")
    details = {r["reason_code"]: r["reason_detail"] for r in rows if r["raw_value"] in BROKEN.values()}
    assert details == DETAILS

def test_every_message_is_accounted_for(shareplex):
    counts = shareplex.sql(
        """select
             (select count(*) from {s}_landing.raw_shareplex) as landed,
             (select count(distinct message_id) from {s}.change_log) as with_changes,
             (select count(*) from {s}_staging.stg_shareplex__events
               where event_class = 'update_half' and operation = 'update_before') as consumed_before_halves,
             (select count(*) from {s}_staging.stg_shareplex__events
               where event_class in ('schema_change', 'truncate', 'transaction', 'heartbeat')) as control,
             (select count(*) from {s}.unpaired_update_halves where operation = 'update_after') as held_after_halves,
             (select count(*) from {s}.quarantine) as quarantined"""
    )[0]
    # + 1: the redelivered seed insert is a duplicate of a change already applied
    assert counts["landed"] == (counts["with_changes"] + counts["consumed_before_halves"]
                                + counts["held_after_halves"] + counts["control"] + counts["quarantined"] + 1)


def test_fixture_files_are_the_seed_examples():
    seed = Path(PROJECT_DIR).parent / "shared" / "seeds" / "002_3b5fb1cb675b2a10.txt"
    if not seed.exists():
        pytest.skip("../shared/seeds is not beside the checkout")
    text = seed.read_text(encoding="utf-8")
    for name in ["seed002_update_verbatim.txt", "seed002_delete_verbatim.txt"]:
        for line in (FIXTURES_DIR / "shareplex" / name).read_text(encoding="utf-8").splitlines():
            assert line.strip() in text, (name, line)


def test_bundled_samples_land_cleanly(shareplex):
    assert shareplex.sql("select * from {s}.quarantine where stream_name = 'samples'") == []
    employees = {r["row_image"]["EMPLOYEE_ID"]: r for r in state(shareplex, "HR.EMPLOYEES").values()}
    assert {k for k, r in employees.items() if r["is_deleted"]} == {"100"}
    assert employees["101"]["row_image"]["SALARY"] == "18500"
    assert employees["102"]["row_image"]["JOB_ID"] == "IT_PROG" and employees["102"]["row_image"]["DEPARTMENT_ID"] == "60"
    assert [r["deleted_by"] for r in state(shareplex, "HR.JOB_HISTORY").values()] == ["truncate"]
