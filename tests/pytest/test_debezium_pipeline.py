"""End to end on embedded Spark: format `debezium` (Debezium JSON from MySQL, PostgreSQL,
Oracle and SQL Server, with and without the schema wrapper; Lindorm "Debezium Format V2.0"
from seed 003, HBase tables included) through two real dbt builds.

Batch 1 lands one stream per connector, control messages (heartbeats, transaction markers,
schema change events, a tombstone), one broken message per quarantine reason and every
example of seed 003. Batch 2 lands a change older than one already applied (by position), a
redelivered message, a wrapped tombstone and a typed HBase stream.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from .conftest import FIXTURES_DIR, PROJECT_DIR, fixture_message

pytestmark = pytest.mark.dbt

LINDORM_TABLE = "ld-xxxx.default.customers"
HBASE_TABLE = "ld-xxxx.default.users"

VARS = {
    "cdc_formats": ["debezium"],
    # Debezium values carry no key: keys per table from configuration
    "cdc_primary_keys": {
        "inventory.orders": ["id"],
        "bank.public.accounts": ["id"],
        "shop.dbo.items": ["id"],
        "ORCL.INVENTORY.CUSTOMERS": ["ID"],
        "inventory.broken": ["id"],
        "inventory.placeholders": ["id"],
        LINDORM_TABLE: ["id"],
        # the bundled samples (samples/debezium/)
        "inventory.customers": ["id"],
        "shop.public.orders": ["id"],
        "ld-bp1demo.default.users": ["id"],
    },
    # the PostgreSQL stream has no schema: its logical types are declared
    "cdc_debezium_column_types": {
        "bank.public.accounts": {
            "rate": "io.debezium.data.VariableScaleDecimal",
            "balance": "org.apache.kafka.connect.data.Decimal(2)",
            "opened": "io.debezium.time.Date",
            "seen_at": "io.debezium.time.MicroTimestamp",
        },
    },
    "cdc_hbase_column_types": {
        HBASE_TABLE: {"f_age": "long", "f_score": "double", "f_vip": "boolean"},
        "ld-bp1demo.default.devices": {"f_temp": "double", "f_boots": "long"},
    },
}

# A connector that writes placeholder positions (file "", pos 0, as in the Paimon and SeaTunnel
# corpora): the update lands first, its insert a batch later; source.ts_ms must decide.
PLACEHOLDER_SOURCE = '"source":{"connector":"mysql","db":"inventory","table":"placeholders","file":"","pos":0,"row":0,"ts_ms":%d}'
PLACEHOLDER_UPDATE = (
    '{"before":{"id":1,"name":"first"},"after":{"id":1,"name":"second"},' + PLACEHOLDER_SOURCE % 2000
    + ',"op":"u","ts_ms":2001}'
)
PLACEHOLDER_INSERT = '{"before":null,"after":{"id":1,"name":"first"},' + PLACEHOLDER_SOURCE % 1000 + ',"op":"c","ts_ms":1001}'

SEED_003 = [
    "seed003_format_definition", "seed003_sql_insert", "seed003_sql_update", "seed003_sql_delete",
    "seed003_sql_delete_column", "seed003_hbase_put",
]

BROKEN = json.loads((FIXTURES_DIR / "debezium" / "broken_messages.json").read_text(encoding="utf-8"))


def lines(relative: str) -> list[str]:
    return (FIXTURES_DIR / relative).read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def dbz(make_pipeline):
    pipeline = make_pipeline("dbz", VARS)
    sqlserver = lines("debezium/sqlserver_items_schema.jsonl")
    batch_1 = {
        "mysql_orders_schema.jsonl": lines("debezium/mysql_orders_schema.jsonl"),
        "postgres_accounts_plain.jsonl": lines("debezium/postgres_accounts_plain.jsonl"),
        "sqlserver_items_schema.jsonl": sqlserver[:2],
        "oracle_customers_schema.jsonl": lines("debezium/oracle_customers_schema.jsonl"),
        "control_messages.jsonl": lines("debezium/control_messages.jsonl"),
        "broken_messages.jsonl": list(BROKEN.values()),
        "seed003.jsonl": [fixture_message(f"lindorm/{name}.json") for name in SEED_003],
        "placeholder_update.jsonl": [PLACEHOLDER_UPDATE],
    }
    for sample in sorted((PROJECT_DIR / "samples" / "debezium").glob("*.jsonl")):
        batch_1[f"sample--{sample.name}"] = sample.read_text(encoding="utf-8").splitlines()
    for name, messages in batch_1.items():
        pipeline.land("debezium", messages, name=name)
    pipeline.build()
    pipeline.land("debezium", [
        sqlserver[2],                                        # older change_lsn than one applied
        lines("debezium/mysql_orders_schema.jsonl")[1],      # redelivered insert of order 2
        '{"schema":null,"payload":null}',                    # tombstone, converter with schemas
        PLACEHOLDER_INSERT,                                  # older than the update applied
    ], name="late.jsonl")
    pipeline.land("debezium", lines("lindorm/hbase_users_typed.jsonl"), name="hbase_users_typed.jsonl")
    pipeline.build()
    return pipeline


def changes(pipeline, table_id):
    return pipeline.sql(f"select * from {{s}}.change_log where table_id = '{table_id}' order by sort_key")


def state(pipeline, table_id):
    return {r["row_key"]: r for r in pipeline.sql(f"select * from {{s}}.current_state where table_id = '{table_id}'")}


def ts(text):
    return dt.datetime.fromisoformat(text)


# --- MySQL, schema included ------------------------------------------------------------

ORDER_2 = {
    "id": "2", "customer": "bob", "amount": "123456789.01", "discount": "0.000", "created": "2023-03-23",
    "updated_at": "2023-03-23 14:30:05.123", "shipped_at": "2023-03-23 14:30:05.123456",
    "modified": "2023-03-23 14:00:10.123456",          # ZonedTimestamp +08:00 -> UTC
    "slot": "10:13:23.000000", "flags": "BQA=", "attrs": '{"gift_wrap": true}', "status": "new",
    "model_year": "2023", "photo": "iVBORwD/", "weight": "3.140000104904175", "score": "0.1",
    "gift": "false", "qty": "3", "views": "9007199254740993",
}
ORDER_TYPES = {
    "id": "int", "customer": "string", "amount": "decimal(10,2)", "discount": "decimal(5,3)",
    "created": "date", "updated_at": "timestamp", "shipped_at": "timestamp", "modified": "timestamp",
    "slot": "string", "flags": "binary", "attrs": "string", "status": "string", "model_year": "int",
    "photo": "binary", "weight": "float", "score": "double", "gift": "boolean", "qty": "smallint",
    "views": "bigint",
}


def test_mysql_changes_in_binlog_order(dbz):
    rows = changes(dbz, "inventory.orders")
    assert [(r["operation"], r["row_key"], r["source_position"]) for r in rows] == [
        ("read", "1", "mysql-bin.000003:154:0"),
        ("insert", "2", "mysql-bin.000003:400:0"),
        ("update", "2", "mysql-bin.000003:900:0"),
        ("delete", "1", "mysql-bin.000003:1200:0"),
        ("insert", "3", "mysql-bin.000003:1500:0"),
        ("insert", "4", "mysql-bin.000003:1500:1"),
        # file 10 after file 3 (numbers, not text), although it was delivered first
        ("update", "3", "mysql-bin.000010:4:0"),
    ]
    insert = rows[1]
    assert insert["after"] == ORDER_2 and insert["column_types"] == ORDER_TYPES
    assert insert["source_system"] == "mysql" and insert["source_database"] == "inventory"
    assert insert["source_schema"] is None and insert["primary_key_columns"] == ["id"]
    assert insert["committed_at"] == ts("2023-11-14 22:13:21") and insert["captured_at"] == ts("2023-11-14 22:13:20.100")
    assert insert["transaction_id"] == "3E11FA47-71CA-11E1-9E33-C80AA9429562:23"  # GTID
    assert insert["source_metadata"]["envelope"] == "schema_payload"
    assert insert["source_metadata"]["schema_name"] == "dbserver1.inventory.orders.Envelope"
    assert rows[0]["committed_at"] is None  # snapshot rows carry source.ts_ms = 0
    assert rows[0]["after"]["discount"] == "-0.125"  # negative two's complement decimal
    assert rows[2]["before"]["amount"] == "123456789.01" and rows[2]["after"]["amount"] == "123456789.02"
    multi_row = rows[4]
    assert multi_row["transaction_id"] == "file=mysql-bin.000003,pos=1400"
    assert multi_row["source_metadata"]["transaction.total_order"] == "1"


def test_mysql_current_state(dbz):
    rows = state(dbz, "inventory.orders")
    assert {k: (r["is_deleted"], r["row_image"]["status"]) for k, r in rows.items()} == {
        "1": (True, "new"), "2": (False, "paid"), "3": (False, "shipped"), "4": (False, "new"),
    }
    assert rows["2"]["row_image"]["amount"] == "123456789.02"
    assert rows["3"]["row_image"]["qty"] == "4"


def test_placeholder_positions_are_ordered_by_source_time(dbz):
    rows = changes(dbz, "inventory.placeholders")
    assert [r["operation"] for r in rows] == ["insert", "update"]  # by source.ts_ms, not arrival
    assert state(dbz, "inventory.placeholders")["1"]["row_image"] == {"id": "1", "name": "second"}


def test_redelivered_message_is_kept_once(dbz):
    rows = dbz.sql("select count(*) as n from {s}.change_log where table_id = 'inventory.orders' and row_key = '2' and operation = 'insert'")
    assert rows == [{"n": 1}]


# --- PostgreSQL, no schema (declared types), TOAST, truncate, logical messages ---------

def test_postgres_lsn_order_toast_placeholder_and_truncate(dbz):
    rows = changes(dbz, "bank.public.accounts")
    assert [(r["operation"], r["row_key"], r["source_position"]) for r in rows] == [
        ("read", "1", "100"), ("update", "1", "200"), ("update", "1", "300"), ("insert", "2", "400"),
        ("insert", "3", "600"),
    ]
    snapshot, _, toasted = rows[0], rows[1], rows[2]
    assert snapshot["after"] == {
        "id": "1", "owner": "o1", "balance": "100.00", "rate": "123.45", "opened": "2022-01-08",
        "seen_at": "2023-11-14 22:13:20.123456", "notes": "long toasted text",
    }
    assert snapshot["column_types"] == {
        "id": "string", "owner": "string", "balance": "decimal(38,2)", "rate": "string",
        "opened": "date", "seen_at": "timestamp", "notes": "string",
    }
    assert snapshot["source_metadata"]["envelope"] == "plain" and snapshot["transaction_id"] == "500"
    # the unchanged TOAST column is left out: a partial after image
    assert toasted["after_is_partial"] and "notes" not in toasted["after"]
    live = state(dbz, "bank.public.accounts")
    assert {k: (r["is_deleted"], r["deleted_by"]) for k, r in live.items()} == {
        "1": (True, "truncate"), "2": (True, "truncate"), "3": (False, None),
    }
    # partial image merged over the update before it (lsn 200, delivered after lsn 300)
    assert live["1"]["row_image"]["balance"] == "300.00"
    assert live["1"]["row_image"]["notes"] == "long toasted text"
    truncates = dbz.sql("select * from {s}.schema_changes where table_id = 'bank.public.accounts'")
    assert [(t["operation"], t["vendor_operation"], t["clears_table"], t["source_position"]) for t in truncates] == [
        ("truncate", "t", True, "500"),
    ]


def test_postgres_logical_decoding_message_is_a_control_event(dbz):
    rows = dbz.sql("select * from {s}_staging.stg_debezium__events where vendor_operation = 'm'")
    assert len(rows) == 1
    message = rows[0]
    assert (message["event_class"], message["operation"]) == ("heartbeat", "message")
    assert message["source_metadata"]["message.prefix"] == "audit"
    assert message["committed_at"] == ts("2023-11-14 22:13:25")


# --- SQL Server and Oracle ---------------------------------------------------------

def test_sqlserver_orders_by_commit_and_change_lsn_across_batches(dbz):
    rows = changes(dbz, "shop.dbo.items")
    assert [(r["operation"], r["after"]["price"]) for r in rows] == [("read", "4.00"), ("update", "5.00"), ("update", "6.00")]
    assert rows[1]["source_position"] == "0000002c:000001a0:0004/0000002c:000001a0:0002/1"
    item = state(dbz, "shop.dbo.items")["10"]
    assert item["row_image"] == {
        "id": "10", "name": "lamp", "price": "6.00",
        "made_at": "2024-12-16 21:02:07.123456789",     # NanoTimestamp keeps nanoseconds
        "opens": "09:00:00.000000000",                   # NanoTime
        "closes": "18:00:00.000",                        # Time (ms)
        "day": "2024-12-16",
    }
    assert item["column_types"]["made_at"] == "timestamp" and item["column_types"]["price"] == "decimal(19,2)"


def test_oracle_orders_by_scn_as_a_number(dbz):
    rows = changes(dbz, "ORCL.INVENTORY.CUSTOMERS")
    assert [(r["operation"], r["source_position"]) for r in rows] == [("insert", "999"), ("update", "1000")]
    assert rows[1]["source_system"] == "oracle" and rows[1]["source_schema"] == "INVENTORY"
    assert rows[1]["transaction_id"] == "0a001b00d2050000"
    customer = state(dbz, "ORCL.INVENTORY.CUSTOMERS")["1001"]
    assert customer["row_image"] == {
        "ID": "1001",                                    # VariableScaleDecimal
        "NAME": "Sally",
        "LIMIT_AMT": "2500.00",
        "JOINED": "2024-12-17 07:23:38.790000",          # +08:00 -> UTC
        "BORN": "1960-01-01 00:00:00.000",               # before 1970
    }
    assert customer["column_types"] == {
        "ID": "string", "NAME": "string", "LIMIT_AMT": "decimal(12,2)", "JOINED": "timestamp", "BORN": "timestamp",
    }


# --- control messages ------------------------------------------------------------------

def test_control_messages(dbz):
    events = dbz.sql(
        "select event_class, operation, transaction_id, committed_at from {s}_staging.stg_debezium__events "
        "where event_class in ('heartbeat', 'transaction') and origin not like '%sample--%' order by origin, origin_offset"
    )
    assert sorted((e["event_class"], e["operation"]) for e in events) == sorted([
        ("heartbeat", "heartbeat"), ("heartbeat", "heartbeat"), ("transaction", "begin"), ("transaction", "commit"),
        ("heartbeat", "message"), ("heartbeat", "tombstone"), ("heartbeat", "tombstone"),
    ])
    assert {e["transaction_id"] for e in events if e["event_class"] == "transaction"} == {"571:53195829"}
    progress = dbz.sql("select * from {s}.stream_progress")
    assert len(progress) == 1
    tombstones = dbz.sql("select count(*) as n from {s}_staging.stg_debezium__events where operation = 'tombstone'")
    assert progress[0]["tombstones_skipped"] == tombstones[0]["n"] >= 2
    assert progress[0]["last_heartbeat_at"] == ts("2024-10-27 03:37:20")  # the samples' heartbeat


def test_schema_change_events(dbz):
    rows = dbz.sql("select * from {s}.schema_changes where source_system = 'mysql' order by sort_key")
    assert [(r["table_id"], r["operation"], r["vendor_operation"], r["clears_table"], r["ddl_text"]) for r in rows] == [
        ("inventory.orders", "alter", "ALTER", False, "ALTER TABLE orders ADD COLUMN note VARCHAR(64)"),
        ("inventory.legacy", "drop", "DROP", True, "DROP TABLE `inventory`.`legacy`"),
    ]
    legacy = list(state(dbz, "inventory.legacy").values())
    assert len(legacy) == 1 and legacy[0]["row_key_kind"] == "row_hash" and legacy[0]["deleted_by"] == "truncate"


# --- Lindorm, seed 003 -----------------------------------------------------------------

SEED_CHANGED_AT = {"committed_at": ts("2016-06-09 16:56:51.807"), "captured_at": ts("2016-06-09 16:56:51.815")}
ANNE = {"id": "1004", "first_name": "Anne", "last_name": "Kretchmar"}
ANNE_MARIE = {"id": "1004", "first_name": "Anne Marie", "last_name": "Kretchmar"}
STRINGS = {"id": "string", "first_name": "string", "last_name": "string"}
SEED_003_EXPECTED = {
    "seed003_format_definition": {
        "operation": "update", "before": {"id": "1004", "name": "Jane"}, "after": {"id": "1004", "name": "Anne"},
        "column_types": {"id": "int", "name": "string"}, **SEED_CHANGED_AT,
    },
    "seed003_sql_insert": {"operation": "insert", "before": None, "after": ANNE, "column_types": STRINGS, **SEED_CHANGED_AT},
    "seed003_sql_update": {"operation": "update", "before": ANNE_MARIE, "after": ANNE, "column_types": STRINGS, **SEED_CHANGED_AT},
    "seed003_sql_delete": {"operation": "delete", "before": ANNE_MARIE, "after": None, "column_types": STRINGS, **SEED_CHANGED_AT},
    # the column missing from `after` was deleted: null in the new state
    "seed003_sql_delete_column": {
        "operation": "update", "before": ANNE_MARIE, "after": {"id": "1004", "first_name": "Anne Marie", "last_name": None},
        "column_types": STRINGS, **SEED_CHANGED_AT,
    },
    "seed003_hbase_put": {
        "operation": "insert", "before": None, "after": {"ROW": "user1", "f_name": "lucky"},
        "column_types": {"ROW": "string", "f_name": "string"},
        "committed_at": ts("2024-09-02 06:33:53.727"), "captured_at": ts("2024-09-02 06:34:19.839"),
    },
}


@pytest.mark.parametrize("example", SEED_003)
def test_seed_003_examples(dbz, example):
    line = SEED_003.index(example) + 1
    rows = dbz.sql(
        "select * from {s}.change_log where origin like '%seed003.jsonl' and origin_offset = " + str(line)
    )
    assert len(rows) == 1
    change = rows[0]
    assert {k: change[k] for k in SEED_003_EXPECTED[example]} == SEED_003_EXPECTED[example]
    assert (change["source_database"], change["source_schema"], change["source_table"], change["table_id"]) == (
        "ld-xxxx", "default", "customers", LINDORM_TABLE,
    )
    if example == "seed003_hbase_put":
        assert change["source_system"] == "hbase"
        assert change["primary_key_columns"] == ["ROW"] and change["row_key"] == "user1"
    else:
        assert change["source_system"] == "lindorm"
        assert change["primary_key_columns"] == ["id"] and change["row_key"] == "1004"


def test_hbase_typed_cells_and_deleted_column(dbz):
    rows = state(dbz, HBASE_TABLE)
    assert {k: r["is_deleted"] for k, r in rows.items()} == {"u1": False, "u3": True}
    assert rows["u1"]["row_image"] == {
        "ROW": "u1", "f_age": "43", "f_score": "98.5", "f_vip": "true",
        "f_nick": None,                                  # deleted cell
        "f_raw": "/wAQ",                                 # not UTF-8: stays Base64
    }
    assert rows["u1"]["column_types"] == {
        "ROW": "string", "f_age": "bigint", "f_score": "double", "f_vip": "boolean", "f_nick": "string", "f_raw": "binary",
    }
    assert rows["u3"]["row_image"]["f_age"] == "-7" and rows["u3"]["row_image"]["f_vip"] == "false"
    assert {r["source_system"] for r in changes(dbz, HBASE_TABLE)} == {"hbase"}


# --- the bundled samples ----------------------------------------------------------------

def test_samples(dbz):
    assert dbz.sql("select * from {s}.quarantine where origin like '%sample--%'") == []
    def live(table):
        return {k: r["row_image"] for k, r in state(dbz, table).items() if not r["is_deleted"]}
    assert {k: v["first_name"] for k, v in live("inventory.customers").items()} == {
        "1001": "Sally", "1002": "George", "1004": "Anne Marie",
    }
    orders = live("shop.public.orders")
    assert list(orders) == ["1"]
    assert orders["1"] == {
        "id": "1", "customer_id": "1001", "total": "49.99", "status": "paid",
        "placed_at": "2024-10-27 03:35:00.123456", "ship_by": str(dt.date(1970, 1, 1) + dt.timedelta(days=20030)),
    }
    assert live("ld-bp1demo.default.users") == {"u1": {"id": "u1", "name": "Anne Marie", "city": None}}
    assert live("ld-bp1demo.default.devices") == {
        "device#001": {"ROW": "device#001", "f_model": "T-800", "f_temp": "22.25", "f_boots": "4"},
    }


# --- quarantine and accounting -------------------------------------------------------------

def test_quarantine_holds_exactly_the_broken_messages(dbz):
    rows = dbz.sql("select reason_code, raw_value, origin from {s}.quarantine")
    broken = sorted((r["reason_code"], r["raw_value"]) for r in rows if r["origin"].endswith("broken_messages.jsonl"))
    assert broken == sorted(BROKEN.items())
    others = [(r["reason_code"], r["origin"].rsplit("/", 1)[-1]) for r in rows if not r["origin"].endswith("broken_messages.jsonl")]
    assert others == [("undecodable_value", "hbase_users_typed.jsonl")]  # 3-byte `long` cell
    codes = {r["reason_code"] for r in rows}
    assert "undecodable_value" in codes


# The specific cause of each broken message (quarantine.reason_detail, docs/quarantine.md).
DETAILS = {
    "not_json": "cut short: the text ends inside an object (41 characters)",
    "type_clash": "fields of the wrong type: before (expected an object)",
    "missing_operation": "the message names no operation",
    "unknown_operation": 'operation "x" is not one format debezium documents',
    "missing_table": "c without a table name (database inventory)",
    "missing_after_image": "c without an after image",
    "missing_before_image": "d without a before image",
    "undecodable_value": "invalid_decimal: invalid_base64: Only base64 data is allowed (column amount)",
    "missing_key": 'no value for key column id in the after image (key ["id"])',
}


def test_quarantine_says_why_each_message_was_set_aside(dbz):
    rows = dbz.sql("select reason_code, reason_detail, origin from {s}.quarantine")
    details = {r["reason_code"]: r["reason_detail"] for r in rows if r["origin"].endswith("broken_messages.jsonl")}
    assert details == DETAILS


def test_every_message_is_accounted_for(dbz):
    counts = dbz.sql(
        """select
             (select count(*) from {s}_landing.raw_debezium) as landed,
             (select count(*) from {s}_staging.stg_debezium__events) as staged,
             (select count(*) from {s}_staging.stg_debezium__events where event_class = 'change') as changes,
             (select count(*) from {s}.change_log) as logged,
             (select count(*) from {s}_staging.stg_debezium__events
               where event_class in ('schema_change', 'truncate', 'transaction', 'heartbeat')) as control,
             (select count(*) from {s}.quarantine) as quarantined"""
    )[0]
    assert counts["landed"] == counts["staged"] == counts["changes"] + counts["control"] + counts["quarantined"]
    assert counts["logged"] == counts["changes"] - 1  # the redelivered insert


# --- which messages pass through the Python UDFs ----------------------------------------

def _wrapped_order(row_id: int, amount: str, decimal_name: str = "org.apache.kafka.connect.data.Decimal") -> str:
    schema = {"type": "struct", "fields": [{"type": "struct", "field": "after", "fields": [
        {"type": "int32", "field": "id"},
        {"type": "bytes", "name": decimal_name, "parameters": {"scale": "2"}, "field": "amount"},
    ]}]}
    payload = {"before": None, "after": {"id": row_id, "amount": amount}, "op": "c", "ts_ms": 2000 + row_id,
               "source": {"connector": "mysql", "db": "shop", "table": "orders", "file": "mysql-bin.000001",
                          "pos": 10 * row_id, "row": 0, "ts_ms": 1000 + row_id}}
    return json.dumps({"schema": schema, "payload": payload})


def test_reads_needing_decoders_are_decoded_and_others_skip_them(make_pipeline):
    """Without declared decimal columns, a read goes through the UDFs only when a message of it
    may hold a decimal or an HBase cell (debezium__read_needs_decoders): a batch of plain
    messages is read without them, and a JSON escape hiding the word `Decimal` still gets a
    batch decoded."""
    pipeline = make_pipeline("dbz_routes", {"cdc_formats": ["debezium"], "cdc_primary_keys": {"shop.orders": ["id"]}})
    plain = json.loads(_wrapped_order(3, "1.50"))["payload"]
    pipeline.land("debezium", [json.dumps(plain)])
    pipeline.build()
    compiled = next((pipeline.work_dir / "target" / "run").rglob("stg_debezium__events.sql")).read_text(encoding="utf-8")
    assert "cdc_decode_debezium_decimals(" not in compiled  # the first build creates the table from this SQL

    escaped = _wrapped_order(2, "AfE=").replace("connect.data.Decimal", "connect.data.Decim\\u0061l")
    assert "Decimal" not in escaped
    pipeline.land("debezium", [escaped])
    pipeline.build()
    pipeline.land("debezium", [
        _wrapped_order(1, "AfE="),                       # Base64 of the unscaled 497
        fixture_message("lindorm/seed003_hbase_put.json"),
    ])
    pipeline.build()

    assert pipeline.sql("select * from {s}.quarantine") == []
    rows = {r["row_key"]: r for r in pipeline.sql(
        "select row_key, after, column_types, source_system from {s}.change_log")}
    assert {k: r["after"] for k, r in rows.items()} == {
        "1": {"id": "1", "amount": "4.97"},
        "2": {"id": "2", "amount": "4.97"},
        "3": {"id": "3", "amount": "1.50"},
        "user1": {"ROW": "user1", "f_name": "lucky"},
    }
    assert rows["1"]["column_types"]["amount"] == rows["2"]["column_types"]["amount"] == "decimal(38,2)"
    assert rows["user1"]["source_system"] == "hbase"
