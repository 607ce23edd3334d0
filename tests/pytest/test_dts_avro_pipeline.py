"""End to end on embedded Spark: format `dts_avro` (DTS Avro records, binary, seed 002) through
two real dbt builds.

Batch 1 lands the bundled samples in both landing layouts (length-prefixed frames and Base64
lines), a mixed MySQL/PostgreSQL stream with every operation class (row changes, INIT, DDL
incl. TRUNCATE and DROP TABLE, every transaction and control operation) and one broken record
per quarantine reason. Batch 2 lands a change older than one already applied, a redelivered
record and a newer heartbeat. Every record is written with fastavro from the schema in
python_udfs/decoders/dts_record.avsc.
"""

from __future__ import annotations

import base64
import datetime as dt
import shutil

import pytest

from python_udfs.decoders.dts_avro import encode_readable

from .conftest import PROJECT_DIR
from .dts_avro_samples import MYSQL_SHOP_ORDERS, ORACLE_HR_EMPLOYEES

pytestmark = pytest.mark.dbt

VARS = {"cdc_formats": ["dts_avro"], "cdc_primary_keys": {"shop.items": ["id"]}}
MYSQL = {"sourceType": "MySQL", "version": "5.7.40"}
POSTGRES = {"sourceType": "PostgreSQL", "version": "14.9"}
ITEM_FIELDS = [["id", 3], ["name", 253], ["price", 246]]


def b64(record: dict) -> str:
    return base64.b64encode(encode_readable(record)).decode("ascii")


def item(item_id, name, price):
    return [
        {"Integer": {"precision": 11, "value": str(item_id)}},
        {"Character": {"charset": "utf8", "text": name}} if name is not None else "NULL",
        {"Decimal": {"value": price, "precision": 10, "scale": 2}},
    ]


def rec(record_id, operation, **extra):
    return {"id": record_id, "sourceTimestamp": 1700000000 + record_id, "operation": operation, "source": MYSQL,
            "sourcePosition": f"mysql-bin.000007:{1000 + record_id}", **extra}


def items(record_id, operation, **extra):
    return rec(record_id, operation, objectName="shop.items", fields=ITEM_FIELDS, **extra)


MIXED = {
    "insert_1": items(201, "INSERT", afterImages=item(1, "pen", "1.5"), sourceTxid="t1"),
    "insert_2": items(202, "INSERT", afterImages=item(2, "cup", "3.00"), sourceTxid="t1"),
    "key_change_2_to_3": items(203, "UPDATE", beforeImages=item(2, "cup", "3.00"), afterImages=item(3, "mug", "3.25")),
    "update_1_newest": items(300, "UPDATE", beforeImages=item(1, "pen", "1.50"), afterImages=item(1, "pen", "2.00")),
    "init_4": items(5, "INIT", afterImages=item(4, "ink", "9.99")),
    "delete_4": items(204, "DELETE", beforeImages=item(4, "ink", "9.99")),
    "create": rec(206, "DDL", objectName="shop.items",
                  afterImages="CREATE TABLE items (id int primary key, name varchar(20), price decimal(10,2))"),
    "alter": rec(207, "DDL", objectName="shop.items", afterImages="/* dts */ ALTER TABLE items ADD COLUMN qty int"),
    "create_database": rec(208, "DDL", objectName="archive", afterImages="CREATE DATABASE archive"),
    "truncate_legacy": rec(209, "DDL", objectName="shop.legacy", afterImages="TRUNCATE TABLE legacy"),
    "drop_old": rec(210, "DDL", objectName="shop.old", afterImages="DROP TABLE `old`"),
    "pg_insert": {"id": 211, "sourceTimestamp": 1700000211, "operation": "INSERT", "source": POSTGRES,
                  "sourcePosition": "0/3000060", "objectName": "bank.public.accounts\\u002Eeu",
                  "tags": {"pk_uk_info": '{"PRIMARY":["id"],"uk_iban":["iban"]}', "thread_id": "3"},
                  "fields": [["id", 20], ["iban", 1043], ["opened", 1184], ["balance", 1700]],
                  "afterImages": [{"Integer": {"precision": 19, "value": "9223372036854775807"}},
                                  {"Character": {"charset": "UTF8", "text": "DE89 3704"}},
                                  {"TimestampWithTimeZone": {"value": {"year": 2023, "month": 1, "day": 1, "hour": 0, "minute": 30, "second": 0, "millis": 7}, "timezone": "Europe/Berlin"}},
                                  {"Decimal": {"value": "12345678901234567890.123456789", "precision": 38, "scale": 9}}],
                  "bornTimestamp": 1700000211789},
}
CONTROL = {
    op: rec(400 + n, op, sourceTxid="t9" if op in ("BEGIN", "COMMIT", "ROLLBACK", "ABORT") else "")
    for n, op in enumerate(["BEGIN", "COMMIT", "ROLLBACK", "ABORT", "HEARTBEAT", "CHECKPOINT",
                            "COMMAND", "FILL", "FINISH", "CONTROL", "RDB", "NOOP"])
}
# NOOP and friends are counted, but only HEARTBEAT/CHECKPOINT/transactions prove the source alive
CONTROL["NOOP"]["sourceTimestamp"] = 1800000000

VALID = encode_readable(items(500, "INSERT", afterImages=item(50, "x", "1")))
BROKEN = {
    "not_dts_avro": [
        "this is not base64 !",
        base64.b64encode(VALID[:-4]).decode("ascii"),                 # truncated record
        base64.b64encode(VALID + b"\x00").decode("ascii"),           # a byte after the record
        base64.b64encode(b'{"id": 1, "operation": "INSERT"}').decode("ascii"),  # JSON, not Avro
    ],
    "missing_table": [b64(rec(501, "INSERT", fields=ITEM_FIELDS, afterImages=item(51, "x", "1")))],
    "field_count_mismatch": [b64(items(502, "INSERT", afterImages=item(52, "x", "1")[:2]))],
    "undecodable_value": [b64(items(503, "INSERT", afterImages=[
        {"Integer": {"precision": 11, "value": "53"}}, {"Character": {"charset": "utf8", "text": "x"}},
        {"Timestamp": {"timestamp": 1700000000, "millis": 2_000_000}}]))],
    "missing_after_image": [b64(items(504, "INSERT"))],
    "missing_before_image": [b64(items(505, "DELETE", afterImages=item(55, "x", "1")))],
    "missing_ddl_text": [b64(rec(506, "DDL", objectName="shop.items"))],
    "missing_key": [b64(items(507, "INSERT", afterImages=["NULL", {"Character": {"charset": "utf8", "text": "x"}},
                                                           {"Decimal": {"value": "1", "precision": 10, "scale": 2}}]))],
}


def frames(records: list[bytes]) -> bytes:
    return b"".join(len(r).to_bytes(4, "big") + r for r in records)


@pytest.fixture(scope="module")
def dts(make_pipeline):
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.landing import land_files

    pipeline = make_pipeline("dts", VARS)
    pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
    folder = pipeline.work_dir / "landing" / "dts_avro"
    folder.mkdir(parents=True)
    for sample in (PROJECT_DIR / "samples" / "dts_avro").iterdir():
        shutil.copy(sample, folder / f"sample--{sample.name}")
    (folder / "mixed.dtsavro").write_bytes(frames([encode_readable(r) for r in MIXED.values()]))
    # a frame cut short at the end of a dump: lands, then is quarantined
    (folder / "cut.bin").write_bytes(frames([VALID])[:-5])
    (folder / "control.b64").write_text("".join(b64(r) + "\n" for r in CONTROL.values()), encoding="ascii")
    (folder / "broken.b64").write_text("".join(m + "\n" for ms in BROKEN.values() for m in ms), encoding="utf-8")

    def land(paths):
        return land_files(SparkSession.builder.getOrCreate(), "dts_avro", paths, project_dir=PROJECT_DIR,
                          landing_schema=f"{pipeline.schema}_landing", scratch_dir=pipeline.work_dir / "scratch",
                          progress=False).messages_landed

    pipeline.landed_first = land([folder])
    assert land([folder]) == 0  # idempotent on (origin, origin_offset)
    pipeline.build()
    pipeline.land("dts_avro", [
        b64(items(250, "UPDATE", beforeImages=item(1, "pen", "1.50"), afterImages=item(1, "pencil", "1.75"))),
        b64(MIXED["insert_1"]),                                     # redelivered
        b64(rec(600, "HEARTBEAT", sourceTimestamp=1740000000)),   # newer than the samples
    ], name="late.b64")
    pipeline.build()
    return pipeline


def changes(pipeline, table_id):
    return pipeline.sql(f"select * from {{s}}.change_log where table_id = '{table_id}' order by sort_key")


def state(pipeline, table_id):
    return {r["row_key"]: r for r in pipeline.sql(f"select * from {{s}}.current_state where table_id = '{table_id}'")}


def ts(text):
    return dt.datetime.fromisoformat(text)


def test_landing_layouts(dts):
    rows = dts.sql("select origin, origin_offset, raw_value from {s}_landing.raw_dts_avro where origin like '%sample--%'")
    by_file = {}
    for row in rows:
        by_file.setdefault(row["origin"].rsplit("--", 1)[-1], []).append(row["origin_offset"])
    assert {k: sorted(v) for k, v in by_file.items()} == {
        "mysql_shop_orders.dtsavro": list(range(1, len(MYSQL_SHOP_ORDERS) + 1)),
        "oracle_hr_employees.b64": list(range(1, len(ORACLE_HR_EMPLOYEES) + 1)),
    }
    frame_1 = next(r for r in rows if r["origin"].endswith(".dtsavro") and r["origin_offset"] == 1)
    assert base64.b64decode(frame_1["raw_value"]) == encode_readable(MYSQL_SHOP_ORDERS[0])
    assert dts.landed_first == (len(MYSQL_SHOP_ORDERS) + len(ORACLE_HR_EMPLOYEES) + len(MIXED) + 1
                                + len(CONTROL) + sum(len(ms) for ms in BROKEN.values()))


# --- the MySQL sample: every MySQL value type ------------------------------------------------

ORDER_1 = {
    "id": "1", "customer": "Zoë 张", "amount": "49.90", "qty": "3", "weight": "1.25", "created": "2024-10-27",
    "updated_at": "2024-10-27 11:35:00.123456", "paid_at": None, "slot": "09:30:00.000000", "model_year": "2024",
    "attrs": '{"gift": true}', "photo": "iVBORw0KGgo=", "location": "AQEAAAAAAAAAAADwPwAAAAAAAABA", "status": "new",
}
ORDER_TYPES = {
    "id": "decimal(20,0)", "customer": "string", "amount": "decimal(10,2)", "qty": "bigint", "weight": "float",
    "created": "date", "updated_at": "timestamp", "paid_at": "timestamp", "slot": "string", "model_year": "int",
    "attrs": "string", "photo": "binary", "location": "binary", "status": "string",
}


def test_mysql_sample_changes(dts):
    rows = changes(dts, "shop.orders")
    assert [(r["operation"], r["row_key"], r["source_position"]) for r in rows] == [
        ("insert", "1", "101"), ("insert", "2", "102"), ("update", "1", "107"), ("delete", "2", "108"),
    ]
    insert = rows[0]
    assert insert["after"] == ORDER_1 and insert["before"] is None
    assert insert["column_types"] == ORDER_TYPES
    assert insert["primary_key_columns"] == ["id"] and insert["row_key_kind"] == "primary_key"
    assert (insert["source_system"], insert["source_database"], insert["source_schema"], insert["source_table"]) == (
        "mysql", "shop", None, "orders")
    assert insert["committed_at"] == ts("2024-10-27 11:35:01")           # sourceTimestamp is seconds
    assert insert["captured_at"] == ts("2024-10-27 11:35:01.250")        # bornTimestamp, ms
    assert insert["transaction_id"] == "tx-7"
    meta = insert["source_metadata"]
    assert meta["sourcePosition"] == "4301@3@1730028900" and meta["tags.pk_uk_info"] == '{"PRIMARY":["id"]}'
    assert '"dataTypeNumber":246' in meta["fields"] and meta["sourceType"] == "MySQL"
    assert rows[1]["after"]["amount"] == "1234567.50"                    # padded to the scale
    update = rows[2]
    assert update["before"]["paid_at"] is None and update["after"]["paid_at"] == "2024-10-27 11:36:40.500000"
    assert update["after"]["status"] == "paid" and not update["after_is_partial"]
    live = state(dts, "shop.orders")
    assert {k: (r["is_deleted"], r["row_image"]["status"]) for k, r in live.items()} == {"1": (False, "paid"), "2": (True, "new")}


def test_mysql_sample_control_and_ddl(dts):
    events = dts.sql(
        "select vendor_operation, event_class, operation, committed_at, transaction_id from {s}_staging.stg_dts_avro__events "
        "where origin like '%mysql_shop_orders%' and event_class <> 'change' order by origin_offset"
    )
    assert [(e["vendor_operation"], e["event_class"], e["operation"], e["transaction_id"]) for e in events] == [
        ("BEGIN", "transaction", "begin", "tx-7"), ("COMMIT", "transaction", "commit", "tx-7"),
        ("HEARTBEAT", "heartbeat", "heartbeat", None), ("DDL", "schema_change", "alter", None),
        ("BEGIN", "transaction", "begin", "tx-8"), ("COMMIT", "transaction", "commit", "tx-8"),
    ]
    assert events[2]["committed_at"] == ts("2024-10-27 11:35:04")


# --- the Oracle sample: INIT, partial update (EmptyObject NONE), time zones --------------------

def test_oracle_sample(dts):
    rows = changes(dts, "HR.EMPLOYEES")
    assert [(r["operation"], r["row_key"]) for r in rows] == [
        ("read", "100"), ("read", "101"), ("insert", "102"), ("update", "100"), ("delete", "101"),
    ]
    first = rows[0]
    assert (first["source_system"], first["source_database"], first["source_schema"], first["source_table"]) == (
        "oracle", None, "HR", "EMPLOYEES")
    assert first["after"]["UPDATED_AT"] == "2024-10-27 02:00:05.250000"   # +08:00 -> UTC
    assert first["after"]["BADGE"] == "yv4B" and first["column_types"]["BADGE"] == "binary"
    assert first["column_types"]["SALARY"] == "decimal(8,2)" and first["column_types"]["HIRED"] == "timestamp"
    update = rows[3]
    # NONE = no value in the image: left out, the after image is partial; NULL is kept as null
    assert update["after"] == {"EMPLOYEE_ID": "100", "SALARY": "25000.00", "NOTES": None}
    assert update["after_is_partial"] and update["transaction_id"] == "5.13.3302"
    live = state(dts, "HR.EMPLOYEES")
    assert {k: r["is_deleted"] for k, r in live.items()} == {"100": False, "101": True, "102": False}
    assert live["100"]["row_image"] == {
        "EMPLOYEE_ID": "100", "NAME": "Steven", "SALARY": "25000.00", "HIRED": "2019-03-01 00:00:00.000000",
        "UPDATED_AT": "2024-10-27 02:00:05.250000", "NOTES": None, "BADGE": "yv4B",
    }
    assert live["101"]["row_image"]["NAME"] == "Neena 王"


# --- the mixed stream ------------------------------------------------------------------------

def test_items_order_by_id_keys_from_config_and_late_changes(dts):
    rows = changes(dts, "shop.items")
    assert [(r["operation"], r["row_key"], r["source_position"]) for r in rows] == [
        ("read", "4", "5"), ("insert", "1", "201"), ("insert", "2", "202"), ("update", "3", "203"),
        ("delete", "4", "204"), ("update", "1", "250"), ("update", "1", "300"),
    ]
    assert rows[3]["previous_row_key"] == "2"
    live = state(dts, "shop.items")
    assert {k: (r["is_deleted"], r["row_image"]) for k, r in live.items()} == {
        "1": (False, {"id": "1", "name": "pen", "price": "2.00"}),      # id 300 wins over the late id 250
        "2": (True, {"id": "2", "name": "cup", "price": "3.00"}),       # key changed to 3
        "3": (False, {"id": "3", "name": "mug", "price": "3.25"}),
        "4": (True, {"id": "4", "name": "ink", "price": "9.99"}),
    }
    inserts_of_1 = [r for r in rows if r["row_key"] == "1" and r["operation"] == "insert"]
    assert len(inserts_of_1) == 1                                        # the redelivered record kept once
    assert live["1"]["column_types"] == {"id": "bigint", "name": "string", "price": "decimal(10,2)"}


def test_postgres_names_keys_and_values(dts):
    rows = changes(dts, "bank.public.accounts.eu")
    assert len(rows) == 1
    row = rows[0]
    assert (row["source_system"], row["source_database"], row["source_schema"], row["source_table"]) == (
        "postgresql", "bank", "public", "accounts.eu")                 # \u002E inside a name
    assert row["primary_key_columns"] == ["id"] and row["row_key"] == "9223372036854775807"
    assert row["after"] == {
        "id": "9223372036854775807", "iban": "DE89 3704",
        "opened": "2022-12-31 23:30:00.000007",                          # Europe/Berlin winter time
        "balance": "12345678901234567890.123456789",
    }
    assert row["column_types"] == {"id": "decimal(19,0)", "iban": "string", "opened": "timestamp", "balance": "decimal(38,9)"}
    assert row["source_metadata"]["tags.thread_id"] == "3" and row["source_metadata"]["sourcePosition"] == "0/3000060"


def test_schema_changes(dts):
    rows = dts.sql("select * from {s}.schema_changes where origin like '%mixed%' order by sort_key")
    assert [(r["table_id"], r["operation"], r["clears_table"], r["ddl_text"]) for r in rows] == [
        ("shop.items", "create", False, MIXED["create"]["afterImages"]),
        ("shop.items", "alter", False, MIXED["alter"]["afterImages"]),
        ("archive", "create", False, "CREATE DATABASE archive"),
        ("shop.legacy", "truncate", True, "TRUNCATE TABLE legacy"),
        ("shop.old", "drop", True, "DROP TABLE `old`"),
    ]
    assert all(r["vendor_operation"] == "DDL" and r["committed_at"] is not None for r in rows)
    sample = dts.sql("select * from {s}.schema_changes where origin like '%sample--%'")
    assert [(r["table_id"], r["operation"], r["source_position"]) for r in sample] == [("shop.orders", "alter", "105")]


def test_control_records_and_stream_progress(dts):
    events = dts.sql(
        "select vendor_operation, event_class, operation, committed_at from {s}_staging.stg_dts_avro__events "
        "where origin like '%control.b64'"
    )
    got = {e["vendor_operation"]: (e["event_class"], e["operation"], e["committed_at"] is not None) for e in events}
    assert got == {
        "BEGIN": ("transaction", "begin", True), "COMMIT": ("transaction", "commit", True),
        "ROLLBACK": ("transaction", "rollback", True), "ABORT": ("transaction", "abort", True),
        "HEARTBEAT": ("heartbeat", "heartbeat", True), "CHECKPOINT": ("heartbeat", "checkpoint", True),
        **{op: ("heartbeat", op.lower(), False) for op in ("COMMAND", "FILL", "FINISH", "CONTROL", "RDB", "NOOP")},
    }
    progress = dts.sql("select * from {s}.stream_progress")
    assert len(progress) == 1
    stream = progress[0]
    assert stream["last_heartbeat_at"] == ts("2025-02-19 21:20:00")  # the late HEARTBEAT; NOOP (2027) is not proof of life
    landed = dts.sql("select count(*) as n from {s}_landing.raw_dts_avro")[0]["n"]
    assert stream["messages_landed"] == landed
    assert stream["quarantined_events"] == sum(len(v) for v in BROKEN.values()) + 1
    assert stream["last_source_position"] == "300"


def test_quarantine_holds_exactly_the_broken_records(dts):
    rows = dts.sql("select reason_code, raw_value, origin from {s}.quarantine")
    broken = sorted((r["reason_code"], r["raw_value"]) for r in rows if r["origin"].endswith("broken.b64"))
    assert broken == sorted((code, m) for code, ms in BROKEN.items() for m in ms)
    cut = [r for r in rows if r["origin"].endswith("cut.bin")]
    assert [(r["reason_code"], base64.b64decode(r["raw_value"])) for r in cut] == [("not_dts_avro", VALID[:-5])]
    assert len(rows) == len(broken) + 1
    reasons = dts.sql(
        "select source_metadata['decode_error'] as e from {s}_staging.stg_dts_avro__events where quarantine_reason = 'not_dts_avro'"
    )
    assert all(r["e"].startswith("not_dts_avro: ") for r in reasons)



# The specific cause of each broken record (quarantine.reason_detail, docs/quarantine.md):
# the decoder's own error text where a decoder failed.
DETAILS = [
    ("field_count_mismatch", "field_count_mismatch: afterImages has 2 values for 3 fields"),
    ("missing_after_image", "INSERT without an after image"),
    ("missing_before_image", "DELETE without a before image"),
    ("missing_ddl_text", "a DDL record whose images hold no DDL text"),
    ("missing_key", 'no value for key column id in the after image (key ["id"])'),
    ("missing_table", "INSERT without a table name"),
    ("not_dts_avro", "not_dts_avro: EOFError: "),
    ("not_dts_avro", "not_dts_avro: EOFError: Expected 50 bytes, read 28"),
    ("not_dts_avro", "not_dts_avro: ValueError: 1 bytes after the record"),
    ("not_dts_avro", "not_dts_avro: invalid_base64: Only base64 data is allowed"),
    ("undecodable_value", "sub-second part 2000000 is not 0..999999 microseconds (column price, afterImages)"),
]


def test_quarantine_says_why_each_record_was_set_aside(dts):
    rows = dts.sql("select reason_code, reason_detail, raw_value from {s}.quarantine")
    details = sorted((r["reason_code"], r["reason_detail"]) for r in rows
                     if any(r["raw_value"] in ms for ms in BROKEN.values()))
    assert details == DETAILS

def test_every_record_is_accounted_for(dts):
    counts = dts.sql(
        """select
             (select count(*) from {s}_landing.raw_dts_avro) as landed,
             (select count(*) from {s}_staging.stg_dts_avro__events) as staged,
             (select count(*) from {s}_staging.stg_dts_avro__events where event_class = 'change') as changes,
             (select count(*) from {s}.change_log) as logged,
             (select count(*) from {s}_staging.stg_dts_avro__events
               where event_class in ('schema_change', 'truncate', 'transaction', 'heartbeat')) as control,
             (select count(*) from {s}.quarantine) as quarantined"""
    )[0]
    assert counts["landed"] == counts["staged"] == counts["changes"] + counts["control"] + counts["quarantined"]
    assert counts["logged"] == counts["changes"] - 1  # the redelivered insert
