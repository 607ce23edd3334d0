"""Canal FlatMessage JSON end to end (seed 002): every type in one mixed stream, the seed's own
examples, ordering (es, then id as a number, then landing order, then index in data[]), the legacy
DTS layout selected per stream, and quarantine reasons. Two landing batches, two dbt builds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import FIXTURES_DIR, PROJECT_DIR, fixture_message

pytestmark = pytest.mark.dbt

LEGACY_STREAM = "dts_legacy"
GTID = "3E11FA47-71CA-11E1-9E33-C80AA9429562:23"
ORDER_TYPES = {"id": "BIGINT(20)", "v": "VARCHAR(20)", "amount": "DECIMAL(10, 2)"}
ORDER_SQL_TYPES = {"id": -5, "v": 12, "amount": 3, "flag": -7}


def canal(type_, table="orders", rows=None, old=None, *, db="shop", es=1_700_000_000_000, id_=1,
          pk=("id",), mysql_types=None, sql_types=None, is_ddl=False, sql="", gtid=None, **extra) -> str:
    """One Canal FlatMessage as DTS writes it (seed 002)."""
    message = {
        "data": rows, "database": db, "es": es, "id": id_, "isDdl": is_ddl,
        "mysqlType": mysql_types, "old": old, "pkNames": list(pk) if pk is not None else None,
        "sql": sql, "sqlType": sql_types, "table": table, "ts": es + 500, "type": type_,
    }
    if gtid:
        message["gtid"] = gtid
    message.update(extra)
    return json.dumps(message, ensure_ascii=False)


def order(type_, rows, old=None, *, es, id_, **extra) -> str:
    return canal(type_, "orders", rows, old, es=es, id_=id_, mysql_types=ORDER_TYPES, sql_types=ORDER_SQL_TYPES, **extra)


def row(id_, v, amount="1.50", **extra) -> dict:
    return {"id": str(id_), "v": v, "amount": amount, "flag": "1", "extra": "x", **extra}


def ddl(type_, table, sql, *, es, id_, **extra) -> str:
    return canal(type_, table, None, es=es, id_=id_, pk=None, is_ddl=True, sql=sql, **extra)


def one_line(relative: str) -> str:
    """A verbatim seed example (not valid JSON) as the one-line message a queue would carry."""
    return " ".join(line.strip() for line in (FIXTURES_DIR / relative).read_text(encoding="utf-8").splitlines())


T0 = 1_700_000_000_000
BIN_B = "\x00\xff\x80abc"
BLOB_TYPES = {"id": "int(11)", "b": "binary(6)", "vb": "varbinary(10)", "bl": "blob", "txt": "text"}
BLOB_SQL_TYPES = {"id": 4, "b": -2, "vb": -3, "bl": 2004, "txt": 2005}

MIXED_STREAM = [
    # six rows in one INSERT; column types from mysqlType, else sqlType, else string
    order("INSERT", [row(1, "a"), row(2, "b"), row(3, "c"), row(4, "d"), row(5, "e"), row(6, "f")], es=T0 + 1000, id_=1),
    # same es: id decides as a number (10 after 9) although id 10 landed first
    order("UPDATE", [row(1, "a3", "2.00")], [{"v": "a2"}], es=T0 + 2000, id_=10),
    order("UPDATE", [row(1, "a2", "2.00")], [{"v": "a", "amount": None}], es=T0 + 2000, id_=9),
    # same es and id: landing order decides
    order("UPDATE", [row(2, "b2")], [{"v": "b"}], es=T0 + 3000, id_=20),
    order("UPDATE", [row(2, "b3")], [{"v": "b2"}], es=T0 + 3000, id_=20),
    # the same key twice in one message: index in data[] decides
    order("UPDATE", [row(3, "c2"), row(3, "c3")], [{"v": "c"}, {"v": "c2"}], es=T0 + 4000, id_=30),
    # two-row delete
    order("DELETE", [row(4, "d"), row(5, "e")], es=T0 + 5000, id_=40),
    # primary-key change: the old key is deleted
    order("UPDATE", [row(7, "f")], [{"id": "6"}], es=T0 + 6000, id_=50),
    # full load rows and a GTID
    canal("INIT", "items", [{"sku": "A", "qty": "1"}, {"sku": "B", "qty": "2"}], es=T0, id_=0, pk=["sku"],
          mysql_types={"sku": "varchar(8)", "qty": "int"}),
    canal("INSERT", "items", [{"sku": "C", "qty": "3"}], es=T0 + 7000, id_=60, pk=["sku"], gtid=GTID),
    # keyless tables: configured key, else a hash of the row
    canal("INSERT", "cfg", [{"code": "k1", "val": "1"}], es=T0 + 7100, id_=61, pk=[]),
    canal("INSERT", "logs", [{"line": "hello"}, {"line": "world"}], es=T0 + 7200, id_=62, pk=[]),
    canal("UPDATE", "logs", [{"line": "hello!"}], [{"line": "hello"}], es=T0 + 7300, id_=63, pk=[]),
    # DDL kinds (isDdl, data null)
    ddl("CREATE", "ddl", "CREATE TABLE ddl (id int primary key)", es=T0 + 7400, id_=64),
    ddl("ALTER", "ddl", "ALTER TABLE ddl ADD COLUMN v int", es=T0 + 7401, id_=65),
    ddl("QUERY", "", "CREATE DATABASE IF NOT EXISTS shop", es=T0 + 7402, id_=66),
    ddl("RENAME", "ddl", "RENAME TABLE ddl TO ddl2", es=T0 + 7403, id_=67),
    ddl("CINDEX", "ddl", "CREATE INDEX i ON ddl (v)", es=T0 + 7404, id_=68),
    ddl("DINDEX", "ddl", "DROP INDEX i ON ddl", es=T0 + 7405, id_=69),
    ddl("DDL", "ddl", "/* Query from DMS-WEBSQL-0 by user 1 */ ALTER TABLE ddl ADD COLUMN w int", es=T0 + 7406, id_=70),
    ddl("INSERT", "ddl", "create unique index j on ddl (w)", es=T0 + 7407, id_=71),
    # truncate: rows before it are deleted, a row after it lives
    canal("INSERT", "trunc", [{"id": "1"}, {"id": "2"}], es=T0 + 8000, id_=80),
    ddl("TRUNCATE", "trunc", "truncate table trunc", es=T0 + 8100, id_=81),
    canal("INSERT", "trunc", [{"id": "3"}], es=T0 + 8200, id_=82),
    # dropped tables: ERASE, and a DTS `DDL` whose statement is a DROP TABLE
    canal("INSERT", "dropme", [{"id": "1"}], es=T0 + 8300, id_=83),
    ddl("ERASE", "dropme", "DROP TABLE dropme", es=T0 + 8400, id_=84),
    canal("INSERT", "dropme2", [{"id": "1"}], es=T0 + 8300, id_=85),
    ddl("DDL", "dropme2", "drop table `dropme2`", es=T0 + 8400, id_=86),
    # binary columns: Canal sends ISO-8859-1 text of the bytes; text columns stay text
    canal("INSERT", "blobs", [{"id": "1", "b": BIN_B, "vb": "é", "bl": "\x01\x02", "txt": "é"}], es=T0 + 8450, id_=150,
          mysql_types=BLOB_TYPES, sql_types=BLOB_SQL_TYPES),
    canal("UPDATE", "blobs", [{"id": "1", "b": BIN_B, "vb": "é", "bl": "\x03", "txt": "é"}], [{"bl": "\x01\x02"}],
          es=T0 + 8451, id_=151, mysql_types=BLOB_TYPES, sql_types=BLOB_SQL_TYPES),
    # no mysqlType: sqlType -4 (LONGVARBINARY) says binary
    canal("INSERT", "blobs2", [{"id": "1", "lb": "\x7f\xfe"}], es=T0 + 8452, id_=152, sql_types={"id": 4, "lb": -4}),
    # MySQL column names are case-insensitive: pkNames ["k1"], the row writes K1; exact name first
    canal("INSERT", "ci", [{"K1": "7", "v": "x"}], es=T0 + 8460, id_=160, pk=["k1"]),
    canal("INSERT", "ci", [{"k1": "8", "K1": "9", "v": "y"}], es=T0 + 8461, id_=161, pk=["k1"]),
    canal("UPDATE", "ci", [{"K1": "7", "v": "x2"}], [{"v": "x"}], es=T0 + 8462, id_=162, pk=["k1"]),
    # control events
    canal("GTID", None, None, es=T0 + 8500, id_=87, pk=None, gtid=GTID),
    canal("MHEARTBEAT", None, None, db=None, es=T0 + 8600, id_=88, pk=None),
    # the seed's own examples
    fixture_message("canal/seed002_delete.json"),
    fixture_message("canal/seed002_ddl.json"),
]

# One partly broken message: row 0 has no image, row 1 is a valid insert.
PARTLY_BROKEN = canal("INSERT", "broken", [None, {"id": "9"}], es=T0 + 9000, id_=90)

BROKEN = {
    "not_json": '{"data":[{"id":"1"}],"database":"shop","table":"broken","type":"INSERT"',
    "type_clash": canal("INSERT", "broken", {"id": "1"}, es=T0 + 9001, id_=91),
    "missing_operation": canal(None, "broken", [{"id": "1"}], es=T0 + 9002, id_=92),
    "unknown_operation": canal("UPSERT", "broken", [{"id": "1"}], es=T0 + 9003, id_=93),
    "missing_table": canal("INSERT", None, [{"id": "1"}], es=T0 + 9004, id_=94),
    "missing_after_image": canal("INSERT", "broken", None, es=T0 + 9005, id_=95),
    "missing_before_image": canal("DELETE", "broken", [], es=T0 + 9006, id_=96),
    "missing_key": canal("INSERT", "broken", [{"id": None, "v": "no id"}], es=T0 + 9007, id_=97),
    "legacy_layout": fixture_message("canal/seed002_delete_legacy_layout.json"),
}
VERBATIM_DDL = one_line("canal/seed002_ddl_verbatim.txt")

# The legacy DTS layout (instances created before 2022-03-20): rows in `old`, an UPDATE's
# previous values in `data`, a DELETE's row in `old` with `data` null.
LEGACY_STREAM_MESSAGES = [
    canal("INSERT", "legacy", None, [{"id": "1", "v": "a"}, {"id": "2", "v": "x"}], es=T0 + 1000, id_=1),
    canal("UPDATE", "legacy", [{"id": "1", "v": "a"}], [{"id": "1", "v": "b"}], es=T0 + 2000, id_=2),
    canal("DELETE", "legacy", None, [{"id": "2", "v": "x"}], es=T0 + 3000, id_=3),
    # the seed's legacy DELETE example: its row has no `id`, the declared key
    fixture_message("canal/seed002_delete_legacy_layout.json"),
]

# The bundled demo stream (samples/canal/) lands cleanly too.
SAMPLES = (PROJECT_DIR / "samples" / "canal" / "store_products.jsonl").read_text(encoding="utf-8").splitlines()

SECOND_BATCH = [
    # older than the updates already applied: lands in the change log, does not win
    order("UPDATE", [row(1, "stale")], [{"v": "a"}], es=T0 + 1500, id_=5),
    # a late insert positioned before the truncate: stays deleted
    canal("INSERT", "trunc", [{"id": "4"}], es=T0 + 8050, id_=79),
    # at-least-once: the five-row INSERT delivered again
    MIXED_STREAM[0],
]


def land(pipeline, format_id: str, messages: list[str], name: str, stream_name: str | None = None) -> int:
    """Land one file of messages as one batch, with a stream name (Pipeline.land has none)."""
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
def mixed(make_pipeline):
    pipeline = make_pipeline("canal", {
        "cdc_formats": ["canal"],
        "cdc_canal_legacy_layout": [LEGACY_STREAM],
        "cdc_primary_keys": {"shop.cfg": ["code"]},
    })
    land(pipeline, "canal", MIXED_STREAM + [PARTLY_BROKEN, VERBATIM_DDL] + list(BROKEN.values()), "batch-1.jsonl")
    land(pipeline, "canal", LEGACY_STREAM_MESSAGES, "legacy-1.jsonl", stream_name=LEGACY_STREAM)
    land(pipeline, "canal", SAMPLES, "samples.jsonl", stream_name="samples")
    pipeline.build()
    pipeline.first_state = state(pipeline, "orders")
    land(pipeline, "canal", SECOND_BATCH, "batch-2.jsonl")
    pipeline.build()
    return pipeline


def state(pipeline, table, db="shop"):
    return {r["row_key"]: r for r in pipeline.sql(f"select * from {{s}}.current_state where table_id = '{db}.{table}'")}


def changes(pipeline, table, db="shop"):
    return pipeline.sql(f"select * from {{s}}.change_log where table_id = '{db}.{table}' order by sort_key")


def test_one_change_per_row_of_data_with_types_from_mysql_type_then_sql_type(mixed):
    inserts = [c for c in changes(mixed, "orders") if c["operation"] == "insert"]
    assert [(c["row_key"], c["row_index"]) for c in inserts] == [(str(i), i - 1) for i in range(1, 7)]
    first = inserts[0]
    assert first["after"] == {"id": "1", "v": "a", "amount": "1.50", "flag": "1", "extra": "x"}
    assert first["column_types"] == {"id": "bigint(20)", "v": "varchar(20)", "amount": "decimal(10,2)",
                                     "flag": "boolean", "extra": "string"}
    assert first["source_system"] == "mysql" and first["source_database"] == "shop" and first["source_table"] == "orders"
    assert first["primary_key_columns"] == ["id"] and first["row_key_kind"] == "primary_key"
    assert str(first["committed_at"]) == "2023-11-14 22:13:21" and str(first["captured_at"]) == "2023-11-14 22:13:21.500000"
    assert first["source_position"] == "1"
    assert first["source_metadata"] == {"es": str(T0 + 1000), "ts": str(T0 + 1500), "id": "1"}


def b64(text: str) -> str:
    import base64
    return base64.b64encode(text.encode("latin-1")).decode("ascii")


def test_binary_columns_are_base64_of_their_iso_8859_1_bytes(mixed):
    log = changes(mixed, "blobs")
    assert [c["operation"] for c in log] == ["insert", "update"]
    insert, update = log
    assert insert["after"] == {"id": "1", "b": b64(BIN_B), "vb": b64("é"), "bl": "AQI=", "txt": "é"}
    assert insert["column_types"]["b"] == "binary(6)" and insert["column_types"]["bl"] == "blob"
    assert update["before"]["bl"] == "AQI=" and update["after"]["bl"] == "Aw==" and update["before"]["b"] == b64(BIN_B)
    # the typed layer's Base64 reading gives the source bytes back
    typed = mixed.sql("select hex(try_to_binary(row_image['b'], 'base64')) as b, "
                      "hex(try_to_binary(row_image['bl'], 'base64')) as bl from {s}.current_state "
                      "where table_id = 'shop.blobs'")
    assert typed == [{"b": "00FF80616263", "bl": "03"}]
    assert changes(mixed, "blobs2")[0]["after"] == {"id": "1", "lb": "f/4="}


def test_key_columns_match_case_insensitively_after_the_exact_name(mixed):
    log = changes(mixed, "ci")
    assert [(c["operation"], c["row_key"], c["row_key_kind"]) for c in log] == [
        ("insert", "7", "primary_key"), ("insert", "8", "primary_key"), ("update", "7", "primary_key")]
    assert log[2]["previous_row_key"] is None
    live = {k: r["row_image"]["v"] for k, r in state(mixed, "ci").items() if not r["is_deleted"]}
    assert live == {"7": "x2", "8": "y"}


def test_update_before_is_data_overlaid_with_old(mixed):
    updates = [c for c in changes(mixed, "orders") if c["operation"] == "update" and c["row_key"] == "1"]
    # order: the late es+1500 update, then id 9, then id 10 (numbers, not text)
    assert [c["after"]["v"] for c in updates] == ["stale", "a2", "a3"]
    by_id = {c["source_position"]: c for c in updates}
    # `old` key with null = the previous value was null; absent key = unchanged
    assert by_id["9"]["before"] == {"id": "1", "v": "a", "amount": None, "flag": "1", "extra": "x"}
    assert by_id["10"]["before"]["v"] == "a2" and by_id["10"]["before"]["amount"] == "2.00"


def test_order_es_then_id_then_landing_then_index(mixed):
    rows = state(mixed, "orders")
    assert mixed.first_state["1"]["row_image"]["v"] == "a3"
    assert rows["1"]["row_image"]["v"] == "a3"          # the older late update did not win
    assert rows["2"]["row_image"]["v"] == "b3"          # same es and id: landing order
    assert rows["3"]["row_image"]["v"] == "c3"          # data[1] after data[0]
    assert rows["7"]["row_image"]["v"] == "f"           # moved from id 6
    assert {k for k, r in rows.items() if r["is_deleted"]} == {"4", "5", "6"}


def test_multi_row_delete_and_key_change(mixed):
    rows = state(mixed, "orders")
    assert rows["4"]["deleted_by"] == "delete" and rows["4"]["row_image"]["v"] == "d"
    key_change = [c for c in changes(mixed, "orders") if c["previous_row_key"]]
    assert [(c["previous_row_key"], c["row_key"]) for c in key_change] == [("6", "7")]


def test_init_is_read_and_gtid_is_kept(mixed):
    items = changes(mixed, "items")
    assert [(c["operation"], c["vendor_operation"], c["row_key"]) for c in items] == [
        ("read", "INIT", "A"), ("read", "INIT", "B"), ("insert", "INSERT", "C")]
    assert items[0]["column_types"] == {"sku": "varchar(8)", "qty": "int"}
    gtid_change = items[2]
    assert gtid_change["source_position"] == f"60/{GTID}" and gtid_change["transaction_id"] == GTID
    assert gtid_change["source_metadata"]["gtid"] == GTID


def test_keyless_tables_use_configured_key_else_row_hash(mixed):
    cfg = changes(mixed, "cfg")[0]
    assert cfg["row_key"] == "k1" and cfg["row_key_kind"] == "primary_key" and cfg["primary_key_columns"] == ["code"]
    logs = state(mixed, "logs")
    assert {r["row_key_kind"] for r in logs.values()} == {"row_hash"}
    live = sorted(r["row_image"]["line"] for r in logs.values() if not r["is_deleted"])
    assert live == ["hello!", "world"]


def test_ddl_lands_in_schema_changes(mixed):
    rows = mixed.sql("select * from {s}.schema_changes where source_format = 'canal' order by sort_key")
    ddl_rows = [(r["table_id"], r["vendor_operation"], r["operation"], r["clears_table"]) for r in rows
                if r["table_id"] in ("shop.ddl", "shop")]
    assert ddl_rows == [
        ("shop.ddl", "CREATE", "create", False),
        ("shop.ddl", "ALTER", "alter", False),
        ("shop", "QUERY", "query", False),
        ("shop.ddl", "RENAME", "rename", False),
        ("shop.ddl", "CINDEX", "create_index", False),
        ("shop.ddl", "DINDEX", "drop_index", False),
        ("shop.ddl", "DDL", "alter", False),
        ("shop.ddl", "INSERT", "create_index", False),   # isDdl wins over the type
    ]
    create = next(r for r in rows if r["vendor_operation"] == "CREATE")
    assert create["ddl_text"] == "CREATE TABLE ddl (id int primary key)"
    seed = [r for r in rows if r["table_id"] == "dbname.tablename"]
    assert [(r["operation"], r["ddl_text"]) for r in seed] == [("ddl", "eg:createxxx")]


def test_truncate_and_dropped_tables_clear_current_state(mixed):
    trunc = state(mixed, "trunc")
    assert {k: (r["is_deleted"], r["deleted_by"]) for k, r in trunc.items()} == {
        "1": (True, "truncate"), "2": (True, "truncate"), "3": (False, None), "4": (True, "truncate")}
    assert state(mixed, "dropme")["1"]["deleted_by"] == "truncate"
    assert state(mixed, "dropme2")["1"]["deleted_by"] == "truncate"
    clearing = mixed.sql("select table_id, operation from {s}.schema_changes where clears_table order by table_id")
    assert clearing == [{"table_id": "shop.dropme", "operation": "drop"},
                        {"table_id": "shop.dropme2", "operation": "drop"},
                        {"table_id": "shop.trunc", "operation": "truncate"}]


def test_seed_delete_example(mixed):
    rows = changes(mixed, "tablename", db="dbname")
    assert len(rows) == 1
    delete = rows[0]
    assert delete["operation"] == "delete" and delete["row_key"] == "500000287"
    assert delete["before"] == {"id": "500000287", "shipping_type": None} and delete["after"] is None
    assert delete["column_types"] == {"id": "bigint", "shipping_type": "varchar"}
    assert str(delete["committed_at"]) == "2020-09-15 09:24:54"
    assert state(mixed, "tablename", db="dbname")["500000287"]["is_deleted"]


def test_legacy_layout_per_stream(mixed):
    rows = changes(mixed, "legacy")
    assert [(c["operation"], c["row_key"]) for c in rows] == [
        ("insert", "1"), ("insert", "2"), ("update", "1"), ("delete", "2")]
    update = rows[2]
    assert update["before"] == {"id": "1", "v": "a"} and update["after"] == {"id": "1", "v": "b"}
    assert rows[3]["before"] == {"id": "2", "v": "x"}
    assert all(c["source_metadata"]["layout"] == "legacy" and c["stream_name"] == LEGACY_STREAM for c in rows)
    live = {k: r["row_image"]["v"] for k, r in state(mixed, "legacy").items() if not r["is_deleted"]}
    assert live == {"1": "b"}


def test_quarantine_reasons(mixed):
    rows = mixed.sql("select reason_code, raw_value, stream_name, row_index from {s}.quarantine")
    by_stream = {}
    for r in rows:
        by_stream.setdefault(r["stream_name"], []).append(r)
    default = by_stream["canal"]
    reasons = sorted(r["reason_code"] for r in default)
    # BROKEN, the verbatim (commented) seed DDL, and row 0 of the partly broken message
    assert reasons == sorted(list(BROKEN) + ["not_json", "missing_after_image"])
    for r in default:
        if r["raw_value"] in BROKEN.values() and r["reason_code"] != "not_json":
            assert BROKEN[r["reason_code"]] == r["raw_value"]
    assert any(r["raw_value"] == VERBATIM_DDL and r["reason_code"] == "not_json" for r in default)
    partly = [r for r in default if r["raw_value"] == PARTLY_BROKEN]
    assert [(r["reason_code"], r["row_index"]) for r in partly] == [("missing_after_image", 0)]
    # in the legacy stream the seed's legacy DELETE is read, but its row has no `id`
    assert [r["reason_code"] for r in by_stream[LEGACY_STREAM]] == ["missing_key"]
    valid_row = changes(mixed, "broken")
    assert [(c["row_key"], c["row_index"]) for c in valid_row] == [("9", 1)]



# The specific cause of each broken message (quarantine.reason_detail, docs/quarantine.md).
DETAILS = {
    "not_json": "cut short: the text ends inside an object (71 characters)",
    "type_clash": "fields of the wrong type: data (expected an array)",
    "missing_operation": "the message names no operation",
    "unknown_operation": 'operation "UPSERT" is not one format canal documents',
    "missing_table": "INSERT without a table name (database shop)",
    "missing_after_image": "INSERT without an after image",
    "missing_before_image": "DELETE without a before image",
    "missing_key": 'no value for key column id in the after image (key ["id"])',
    "legacy_layout": "DELETE with its row in `old` and `data` null on stream canal: list the stream in "
                     "var('cdc_canal_legacy_layout') and requeue",
}


def test_quarantine_says_why_each_message_was_set_aside(mixed):
    rows = mixed.sql("select reason_code, reason_detail, raw_value from {s}.quarantine where stream_name = 'canal'")
    details = {r["reason_code"]: r["reason_detail"] for r in rows if r["raw_value"] in BROKEN.values()}
    assert details == DETAILS

def test_redelivered_message_is_kept_once(mixed):
    counts = mixed.sql(
        "select count(*) as n, count(distinct change_id) as d from {s}.change_log where table_id = 'shop.orders' and operation = 'insert'"
    )[0]
    assert counts == {"n": 6, "d": 6}
    # the copies left out are listed, each with a kept copy in the change log (read by an
    # earlier run: the redelivery landed in a later batch)
    left_out = mixed.sql(
        """select r.kept_copy, s.origin, s.origin_offset, c.message_id is not null as kept_logged
           from {s}_staging.int_redelivered_changes as r
           join {s}_staging.stg_canal__events as s on r.event_id = s.event_id
           left join {s}.change_log as c on r.change_id = c.change_id"""
    )
    assert {(r["kept_copy"], r["origin"].split("/")[-1], r["origin_offset"], r["kept_logged"]) for r in left_out} == {
        ("earlier_run", "batch-2.jsonl", 3, True)
    }
    assert len(left_out) == 6


def test_every_message_and_row_is_accounted_for(mixed):
    counts = mixed.sql(
        """select
             (select count(*) from {s}_landing.raw_canal) as landed,
             (select count(distinct message_id) from (
                 select message_id from {s}.change_log
                 union all
                 select message_id from {s}_staging.stg_canal__events
                   where event_class in ('schema_change', 'truncate', 'transaction', 'heartbeat')
                 union all
                 select message_id from {s}.quarantine
             ) as ends) as accounted,
             (select count(*) from {s}_staging.stg_canal__events
               where event_class in ('change', 'invalid')) as row_events,
             (select count(*) from {s}_staging.stg_canal__events as e
               left semi join {s}.change_log as c on e.message_id = c.message_id and e.row_index = c.row_index) as applied,
             (select count(*) from {s}.quarantine) as quarantined"""
    )[0]
    # the redelivered INSERT (at-least-once) is a duplicate of changes already applied
    assert counts["landed"] == counts["accounted"] + 1
    unaccounted = mixed.sql(
        """select origin, origin_offset from {s}_staging.stg_canal__events as e
           where not exists (select 1 from {s}.change_log as c where c.message_id = e.message_id)
             and event_class = 'change'"""
    )
    assert {(r["origin"].split("/")[-1], r["origin_offset"]) for r in unaccounted} == {("batch-2.jsonl", 3)}
    # at-least-once: the redelivered INSERT's six rows are staged but not applied twice
    assert counts["row_events"] == counts["applied"] + counts["quarantined"] + 6
    progress = {r["stream_name"]: r for r in mixed.sql("select * from {s}.stream_progress")}
    assert set(progress) == {"canal", LEGACY_STREAM, "samples"}
    assert str(progress["canal"]["last_heartbeat_at"]) == "2023-11-14 22:13:28.600000"
    # 8 DDL, 3 clearing DDL (TRUNCATE, ERASE, DDL drop table), GTID, heartbeat, the seed DDL
    assert progress["canal"]["control_events"] == 14


def test_fixture_files_are_the_seed_examples():
    seed = (Path(PROJECT_DIR).parent / "shared" / "seeds" / "002_3b5fb1cb675b2a10.txt")
    if not seed.exists():
        pytest.skip("../shared/seeds is not beside the checkout")
    text = seed.read_text(encoding="utf-8")
    for line in (FIXTURES_DIR / "canal" / "seed002_ddl_verbatim.txt").read_text(encoding="utf-8").splitlines():
        assert line.strip() in text


def test_bundled_samples_land_cleanly(mixed):
    assert mixed.sql("select * from {s}.quarantine where stream_name = 'samples'") == []
    products = state(mixed, "products", db="store")
    assert {k for k, r in products.items() if r["is_deleted"]} == {"102"}
    assert products["101"]["row_image"]["price"] == "3.20" and products["103"]["row_image"]["price"] == "11.90"
    assert products["104"]["row_image"]["color"] == "purple"
    assert sorted(state(mixed, "categories", db="store")) == ["1", "2"]
    ddl = mixed.sql("select operation from {s}.schema_changes where stream_name = 'samples'")
    assert ddl == [{"operation": "alter"}]


def test_control_events_have_no_row_key_kind(mixed):
    # row_key_kind says how row_key was made: DDL, truncate and transaction events have neither
    kinds = mixed.sql(
        """select event_class, row_key is null as keyless, row_key_kind
           from {s}_staging.stg_canal__events
           where event_class <> 'invalid'
           group by 1, 2, 3"""
    )
    control = [k for k in kinds if k["event_class"] != "change"]
    assert control and all(k["keyless"] and k["row_key_kind"] is None for k in control), kinds
    assert {k["row_key_kind"] for k in kinds if k["event_class"] == "change"} <= {"primary_key", "row_id", "row_hash"}
    assert all(not k["keyless"] for k in kinds if k["event_class"] == "change")
