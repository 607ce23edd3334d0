"""End to end on embedded Spark: format `datastream` (Google Cloud Datastream events, seed 004)
from MySQL, Oracle, PostgreSQL and SQL Server, JSON events and an Avro container file.

Module `ds` (two builds): batch 1 lands every stream out of order (the seed's Oracle events
in reverse), duplicates, one broken event per quarantine reason, the bundled samples and an
Avro file; batch 2 redelivers events (one with its timestamps in the other form), an event
older than one applied, and a corrupt Avro file.

Module `shuffled` (three builds): for several seeds, a generated history per source type is
delivered once in order to one table and shuffled, spread over batches and duplicated to a
twin table; both must end in the same `current_state`, equal to the history's true state.
"""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest

from .cdc_history import DATASTREAM_SOURCES, datastream_messages, deliveries, generate
from .conftest import FIXTURES_DIR, PROJECT_DIR, fixture_message
from .datastream_avro import jobs_events, write_avro

pytestmark = pytest.mark.dbt

SEED_TABLE = "DB1.ROOT.SAMPLE"
VARS = {
    "cdc_formats": ["datastream"],
    # the seed's Oracle events carry no primary_keys: the key comes from configuration
    "cdc_primary_keys": {SEED_TABLE: ["THIS_IS_MY_PK"]},
}
BROKEN = json.loads((FIXTURES_DIR / "datastream" / "broken_messages.json").read_text(encoding="utf-8"))


def lines(name: str) -> list[str]:
    return (FIXTURES_DIR / "datastream" / name).read_text(encoding="utf-8").splitlines()


def land_avro(pipeline, name: str, data: bytes) -> int:
    """Land one Avro container file (bytes) the way `cdc-pipeline land` does."""
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.landing import land_files

    pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
    path = pipeline.work_dir / "landing" / "datastream" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return land_files(
        SparkSession.builder.getOrCreate(), "datastream", [path], project_dir=PROJECT_DIR,
        landing_schema=f"{pipeline.schema}_landing", scratch_dir=pipeline.work_dir / "scratch", progress=False,
    ).messages_landed


def with_epoch_timestamps(message: str, read_timestamp_ms: int) -> str:
    """The same event (same uuid) redelivered with epoch timestamps instead of ISO text."""
    event = json.loads(message)
    text = event["source_timestamp"].replace("Z", "+00:00")
    instant = dt.datetime.fromisoformat(text)
    instant = instant if instant.tzinfo else instant.replace(tzinfo=dt.timezone.utc)
    event["source_timestamp"] = int(instant.timestamp() * 1000)
    event["read_timestamp"] = read_timestamp_ms
    return json.dumps(event)


def bare_lsn_update(lsn: str, qty: int) -> str:
    """A SQL Server CDC update whose LSN is written as 20 bare hex digits (no colons)."""
    event = json.loads(lines("sqlserver_items.jsonl")[1])
    metadata = {**event["source_metadata"], "table": "bare_lsn", "lsn": lsn}
    return json.dumps({
        **event, "object": "dbo_bare_lsn", "uuid": f"bare-{lsn}", "source_metadata": metadata,
        "sort_keys": [event["source_timestamp"], lsn], "payload": {"item_id": 1, "name": "pen", "qty": qty},
    })


@pytest.fixture(scope="module")
def ds(make_pipeline, tmp_path_factory):
    pipeline = make_pipeline("ds", VARS)
    mysql = lines("mysql_orders.jsonl")
    rng = random.Random(4)
    shuffled_mysql = mysql + [mysql[4], mysql[0]]          # at-least-once: two duplicates
    rng.shuffle(shuffled_mysql)
    batch_1 = {
        # the seed's INSERT, UPDATE, DELETE delivered in reverse order
        "seed004.jsonl": [fixture_message(f"datastream/seed004_oracle_{op}.json") for op in ("delete", "update", "insert")],
        "mysql_orders.jsonl": shuffled_mysql,
        "postgres_accounts.jsonl": list(reversed(lines("postgres_accounts.jsonl"))),
        "sqlserver_items.jsonl": lines("sqlserver_items.jsonl")[::2] + lines("sqlserver_items.jsonl")[1::2],
        "oracle_employees_rowid.jsonl": list(reversed(lines("oracle_employees_rowid.jsonl"))),
        # 0x27_00000760_0002 is the later LSN although it has no hex letter
        "sqlserver_bare_lsn.jsonl": [bare_lsn_update("00000027000007600002", 8), bare_lsn_update("000000270000075a0001", 7)],
        "broken_messages.jsonl": list(BROKEN.values()),
    }
    for name, messages in batch_1.items():
        pipeline.land("datastream", messages, name=name)
    for sample in sorted((PROJECT_DIR / "samples" / "datastream").glob("*.jsonl")):
        pipeline.land("datastream", sample.read_text(encoding="utf-8").splitlines(), name=f"sample--{sample.name}")
    jobs = write_avro(tmp_path_factory.mktemp("avro") / "jobs.avro", list(reversed(jobs_events())))
    land_avro(pipeline, "hr_jobs.avro", jobs.read_bytes())
    pipeline.build()
    pipeline.land("datastream", [
        with_epoch_timestamps(mysql[2], 1700000099000),   # insert of order 3 again, epoch form
        lines("postgres_accounts.jsonl")[1],               # PG update at lsn 0/9A again
        json.dumps({**json.loads(lines("postgres_accounts.jsonl")[1]),
                    "uuid": "0bd5e1a8-0000-4000-8000-00000000late",
                    "source_metadata": {**json.loads(lines("postgres_accounts.jsonl")[1])["source_metadata"], "lsn": "0/50"},
                    "payload": {"id": 1, "owner": "zoe", "balance": "1.00"}}),  # older than applied
    ], name="late.jsonl")
    land_avro(pipeline, "corrupt.avro", jobs.read_bytes()[:200])
    pipeline.build()
    return pipeline


def changes(pipeline, table_id):
    return pipeline.sql(f"select * from {{s}}.change_log where table_id = '{table_id}' order by sort_key")


def state(pipeline, table_id):
    return {r["row_key"]: r for r in pipeline.sql(f"select * from {{s}}.current_state where table_id = '{table_id}'")}


def ts(text):
    return dt.datetime.fromisoformat(text)


# --- seed 004: Oracle INSERT, UPDATE, DELETE delivered in reverse ---------------------

def test_seed_oracle_stream_in_source_order(ds):
    rows = changes(ds, SEED_TABLE)
    assert [(r["operation"], r["vendor_operation"], r["row_key"]) for r in rows] == [
        ("insert", "INSERT", "1231535353"), ("update", "UPDATE", "1231535353"), ("delete", "DELETE", "1231535353"),
    ]
    insert, update, delete = rows
    assert insert["after"] == {"THIS_IS_MY_PK": "1231535353", "FIELD1": "foo", "FIELD2": "TLV"}
    assert insert["before"] is None and insert["primary_key_columns"] == ["THIS_IS_MY_PK"]
    assert update["after"]["FIELD1"] is None and "FIELD1" in update["after"]   # SQL NULL kept
    assert delete["before"] == {"THIS_IS_MY_PK": "1231535353", "FIELD1": None, "FIELD2": "TLV"}
    assert delete["after"] is None
    assert (insert["source_system"], insert["source_database"], insert["source_schema"], insert["source_table"]) == (
        "oracle", "DB1", "ROOT", "SAMPLE")
    # "2019-11-07T02:15:39" has no zone: UTC; read_timestamp ends in Z
    assert insert["committed_at"] == ts("2019-11-07 02:15:39") and insert["captured_at"] == ts("2019-11-07 07:37:16.808")
    assert insert["source_position"] == "1573092939000/15869116216871:0x0073c9.000a4e4c.01d0:67"
    assert insert["source_metadata"]["row_id"] == "AAAPwRAALAAMzMBABD"
    assert insert["source_metadata"]["uuid"] == "d7989206-380f-0e81-8056-240501101100"
    assert insert["source_metadata"]["read_method"] == "oracle-cdc-logminer"
    row = state(ds, SEED_TABLE)["1231535353"]
    assert row["is_deleted"] and row["deleted_by"] == "delete" and row["last_operation"] == "delete"


# --- MySQL: backfill, CDC, UPDATE-DELETE / UPDATE-INSERT, binlog file rollover -----------

def test_mysql_changes_in_binlog_order(ds):
    rows = changes(ds, "demo.orders")
    # the two backfill reads share timestamp and position: their order is the uuid hash's
    rows[:2] = sorted(rows[:2], key=lambda r: r["row_key"])
    assert [(r["operation"], r["vendor_operation"], r["row_key"], r["source_position"]) for r in rows] == [
        ("read", "INSERT", "1", "1700000000000"),
        ("read", "INSERT", "2", "1700000000000"),
        ("insert", "INSERT", "3", "1700000001000/mysql-bin.000009:400"),
        # one update as two events at one position, key unchanged: one update, the old row
        # (the UPDATE-DELETE) as its before image
        ("update", "UPDATE-INSERT", "1", "1700000002000/mysql-bin.000009:999"),
        # position 1000 after 999 (numbers, not text); a key change 2 -> 20: two changes,
        # the old-row half first
        ("delete", "UPDATE-DELETE", "2", "1700000002000/mysql-bin.000009:1000"),
        ("update", "UPDATE-INSERT", "20", "1700000002000/mysql-bin.000009:1000"),
        # file 10 after file 9 although its position is smaller
        ("delete", "DELETE", "3", "1700000002000/mysql-bin.000010:120"),
        ("insert", "INSERT", "4", "1700000003000/mysql-bin.000010:300"),
        ("update", "UPDATE-INSERT", "4", "1700000004000/mysql-bin.000010:500"),
    ]
    backfill = rows[0]
    assert backfill["after"] == {"id": "1", "customer": "ann", "amount": "10.5", "note": None}
    assert backfill["source_metadata"]["read_method"] == "mysql-backfill-fulldump"
    assert backfill["column_types"] == {"id": "string", "customer": "string", "amount": "string", "note": "string"}
    update = rows[3]
    assert update["before"]["amount"] == "10.5" and update["after"]["amount"] == "11.25"
    old_key = rows[4]
    assert old_key["before"]["id"] == "2" and old_key["after"] is None
    assert {r["source_system"] for r in rows} == {"mysql"} and rows[2]["source_schema"] is None
    assert rows[2]["source_metadata"]["log_file"] == "mysql-bin.000009"
    assert rows[2]["source_metadata"]["sort_keys"] == '["1700000001000","mysql-bin.000009","400"]'


def test_mysql_current_state(ds):
    rows = state(ds, "demo.orders")
    assert {k: (r["is_deleted"], (r["row_image"] or {}).get("amount")) for k, r in rows.items()} == {
        "1": (False, "11.25"),    # UPDATE-DELETE + UPDATE-INSERT, key unchanged: updated, live
        "2": (True, "20"),        # the old key of a key change: tombstone (JSON 20.0: VARIANT text "20")
        "20": (False, "20"),
        "3": (True, "3"),
        "4": (False, "44"),       # a lone UPDATE-INSERT is an upsert
    }


def test_duplicates_are_removed_by_uuid(ds):
    counts = ds.sql(
        "select source_metadata['uuid'] as uuid, count(*) as n from {s}.change_log group by 1 having count(*) > 1"
    )
    assert counts == []
    landed = ds.sql("select count(*) as n from {s}_landing.raw_datastream where raw_value like '%mysql-bin.000009\", 400%'")
    assert landed[0]["n"] >= 1
    # order 3's insert landed twice, the second time with epoch timestamps: one change
    inserts = ds.sql("select * from {s}.change_log where table_id = 'demo.orders' and row_key = '3' and operation = 'insert'")
    assert len(inserts) == 1 and inserts[0]["committed_at"] == ts("2023-11-14 22:13:21")
    redelivered = ds.sql(
        "select count(*) as n from {s}_staging.stg_datastream__events where table_id = 'demo.orders' "
        "and row_key = '3' and operation = 'insert'"
    )
    assert redelivered == [{"n": 2}]


# --- UPDATE-DELETE + UPDATE-INSERT landed in different batches, in either order --------

def renamed(message: str, table: str) -> str:
    """The same event for another table (its own uuid): one test, two tables, two orders."""
    event = json.loads(message)
    return json.dumps({**event, "uuid": f"{table}-{event['uuid']}", "source_metadata": {**event["source_metadata"], "table": table}})


PAIR_CHANGES = """
    select table_id, row_key, operation, vendor_operation, change_id, to_json(before) as before,
           to_json(after) as after, sort_key
    from {s}.change_log
"""
PAIR_STATE = "select table_id, row_key, is_deleted, to_json(row_image) as row_image, last_change_id from {s}.current_state"
PAIR_HISTORY = """
    select table_id, row_key, change_id, operation, is_deleted, to_json(row_image) as row_image,
           valid_from, valid_to, ended_by, is_current
    from {s}.row_history
"""


def test_update_halves_in_different_batches_are_one_update(make_pipeline):
    pipeline = make_pipeline("ds_halves", {"cdc_formats": ["datastream"]})
    mysql = lines("mysql_orders.jsonl")
    inserts, old_1, new_1, old_2, new_20 = mysql[:3], mysql[3], mysql[4], mysql[5], mysql[6]

    def as_set(rows):
        return {tuple(sorted(r.items())) for r in rows}

    def table_rows(query, table):
        return [r for r in pipeline.sql(query) if r["table_id"] == f"demo.{table}"]

    # `orders`: the old-row halves first; `reversed`: the new-row halves first
    pipeline.land("datastream", [renamed(m, "orders") for m in [*inserts, old_1, new_20]]
                  + [renamed(m, "reversed") for m in [*inserts, new_1, old_2]])
    pipeline.build()
    # a lone half applies at once: order 1's old row is deleted, until its new row comes
    assert {r["row_key"]: r["is_deleted"] for r in table_rows(PAIR_STATE, "orders")} == {
        "1": True, "2": False, "3": False, "20": False}
    assert {r["row_key"]: r["is_deleted"] for r in table_rows(PAIR_STATE, "reversed")} == {
        "1": False, "2": True, "3": False}

    pipeline.land("datastream", [renamed(m, "orders") for m in [new_1, old_2]]
                  + [renamed(m, "reversed") for m in [old_1, new_20]])
    pipeline.build()
    for table in ("orders", "reversed"):
        changes = sorted(table_rows(PAIR_CHANGES, table), key=lambda r: r["sort_key"])
        assert [(r["operation"], r["vendor_operation"], r["row_key"]) for r in changes[3:]] == [
            ("update", "UPDATE-INSERT", "1"),                  # key unchanged: one update
            ("delete", "UPDATE-DELETE", "2"), ("update", "UPDATE-INSERT", "20"),   # key changed
        ], table
        assert json.loads(changes[3]["before"])["amount"] == "10.5"
        assert json.loads(changes[3]["after"])["amount"] == "11.25"
        state = {r["row_key"]: (r["is_deleted"], json.loads(r["row_image"])["amount"])
                 for r in table_rows(PAIR_STATE, table)}
        assert state == {"1": (False, "11.25"), "2": (True, "20"), "3": (False, "3"), "20": (False, "20")}, table
        # order 1's history: its backfill read, then the update; no tombstone between them
        history = sorted((r["valid_from"], r["operation"], r["is_current"]) for r in table_rows(PAIR_HISTORY, table)
                         if r["row_key"] == "1")
        assert [(operation, current) for _, operation, current in history] == [("read", False), ("update", True)], table
    pairs = pipeline.sql("select table_id, row_key from {s}_staging.stg_datastream__update_pairs")
    assert sorted((r["table_id"], r["row_key"]) for r in pairs) == [("demo.orders", "1"), ("demo.reversed", "1")]

    incremental = [as_set(pipeline.sql(q)) for q in (PAIR_CHANGES, PAIR_STATE, PAIR_HISTORY)]
    pipeline.rebuild()
    assert [as_set(pipeline.sql(q)) for q in (PAIR_CHANGES, PAIR_STATE, PAIR_HISTORY)] == incremental


# --- PostgreSQL -------------------------------------------------------------------------

def test_postgres_orders_by_timestamp_then_lsn_as_a_number(ds):
    rows = changes(ds, "public.accounts")
    assert [(r["operation"], r["row_key"], r["source_position"]) for r in rows] == [
        ("read", "1", "1704067200000"),
        ("update", "1", "1704067201000/0/50"),     # landed late, older lsn: ordered first
        ("update", "1", "1704067201000/0/9A"),
        ("update", "1", "1704067201000/0/1A0"),    # 0x1A0 > 0x9A although "0/1A0" < "0/9A" as text
        ("insert", "2", "1704067202000/0/1B0"),
        ("delete", "2", "1704067202000/1/0"),
        ("insert", "3", "1704067203000/1/10"),
    ]
    assert rows[2]["transaction_id"] == "501" and rows[0]["transaction_id"] is None
    assert {r["source_system"] for r in rows} == {"postgresql"}
    assert (rows[0]["source_database"], rows[0]["source_schema"], rows[0]["source_table"]) == (None, "public", "accounts")
    # "+08:00" offset converted to UTC
    assert rows[-1]["committed_at"] == ts("2024-01-01 00:00:03")
    live = state(ds, "public.accounts")
    assert {k: (r["is_deleted"], r["row_image"]["balance"]) for k, r in live.items()} == {
        "1": (False, "80.00"), "2": (True, "5.00"), "3": (False, "1.50"),
    }


# --- SQL Server -------------------------------------------------------------------------

def test_sqlserver_keys_from_replication_index_and_lsn_order(ds):
    rows = changes(ds, "shop.dbo.items")
    assert [(r["operation"], r["row_key"], r["after"]["qty"] if r["after"] else None) for r in rows] == [
        ("read", "1", "5"), ("update", "1", "4"), ("update", "1", "3"), ("insert", "2", "9"), ("delete", "2", None),
    ]
    assert rows[1]["primary_key_columns"] == ["item_id"] and rows[1]["row_key_kind"] == "primary_key"
    assert rows[1]["source_position"] == "1704067205000/00000027:00000758:0005"
    assert rows[1]["source_metadata"]["physical_location"] == "[1,1234,5]"
    assert rows[3]["source_schema"] == "dbo"      # schema given as an array
    assert {r["source_system"] for r in rows} == {"sqlserver"}
    live = state(ds, "shop.dbo.items")
    assert {k: (r["is_deleted"], r["row_image"]["qty"]) for k, r in live.items()} == {"1": (False, "3"), "2": (True, "9")}


def test_sqlserver_bare_hex_lsns_compare_as_hex(ds):
    rows = changes(ds, "shop.dbo.bare_lsn")
    assert [r["after"]["qty"] for r in rows] == ["7", "8"]
    assert state(ds, "shop.dbo.bare_lsn")["1"]["row_image"]["qty"] == "8"


# --- Oracle without a key: row_id, rs_id compared as a number ---------------------------

def test_oracle_rowid_keys_and_rs_id_order(ds):
    rows = changes(ds, "ORCL.HR.EMPLOYEES")
    rows[:2] = sorted(rows[:2], key=lambda r: r["row_key"])   # two backfill reads, one timestamp
    assert [(r["vendor_operation"], r["row_key"], r["row_key_kind"]) for r in rows] == [
        ("INSERT", "AAAR3sAAEAAAACXAAA", "row_id"),
        ("INSERT", "AAAR3sAAEAAAACXAAB", "row_id"),
        ("UPDATE-INSERT", "AAAR3sAAEAAAACXAAA", "row_id"),   # with its UPDATE-DELETE: one update
        ("UPDATE", "AAAR3sAAEAAAACXAAA", "row_id"),      # rs_id 0x0000a0.… > 0x00009f.ffffffff.…
        ("DELETE", "AAAR3sAAEAAAACXAAB", "row_id"),      # same rs_id, ssn 1
    ]
    assert rows[0]["primary_key_columns"] == [] and rows[0]["operation"] == "read"
    assert rows[2]["before"]["SALARY"] == "1000" and rows[2]["after"]["SALARY"] == "1100"
    assert rows[3]["transaction_id"] == "5.12.900"
    live = state(ds, "ORCL.HR.EMPLOYEES")
    assert live["AAAR3sAAEAAAACXAAA"]["row_image"]["SALARY"] == "1200" and not live["AAAR3sAAEAAAACXAAA"]["is_deleted"]
    assert live["AAAR3sAAEAAAACXAAB"]["is_deleted"]


# --- Avro container files -------------------------------------------------------------

def test_avro_records_decoded_with_types_and_lineage(ds):
    rows = changes(ds, "ORCL.HR.JOBS")
    rows = [r for r in rows if r["origin"].endswith("hr_jobs.avro")]
    assert [(r["operation"], r["vendor_operation"], r["row_key"]) for r in rows] == [
        ("read", "INSERT", "AAAJOB0001"), ("read", "INSERT", "AAAJOB0002"), ("update", "UPDATE", "AAAJOB0001"),
        ("delete", "DELETE", "AAAJOB0002"), ("insert", "INSERT", "AAAJOB0003"),
    ]
    # written in reverse: the first event is the file's last record
    assert [r["origin_offset"] for r in rows] == [5, 4, 3, 2, 1]
    update = rows[2]
    assert update["after"] == {
        "JOB_ID": "1", "TITLE": "Senior Engineer", "MIN_SALARY": "6500.00", "OPENED_AT": "2024-01-02 08:30:00.123456",
        "OPENED_ON": "2024-01-02", "LOGO": "AAEC/w==", "REMOTE": "true",
    }
    assert update["column_types"] == {
        "JOB_ID": "bigint", "TITLE": "string", "MIN_SALARY": "decimal(10,2)", "OPENED_AT": "timestamp",
        "OPENED_ON": "date", "LOGO": "binary", "REMOTE": "boolean",
    }
    # timestamp-millis metadata arrives as epoch milliseconds
    assert update["committed_at"] == ts("2024-03-01 09:05:00") and update["captured_at"] == ts("2024-03-01 09:05:30")
    assert rows[4]["after"]["TITLE"] is None and "TITLE" in rows[4]["after"]


def test_corrupt_avro_file_is_quarantined_not_lost(ds):
    rows = ds.sql("select * from {s}.quarantine where origin like '%corrupt.avro'")
    assert [r["reason_code"] for r in rows] == ["not_json"]
    assert rows[0]["raw_value"].startswith("<undecodable Avro")


# --- quarantine, accounting -------------------------------------------------------------

def test_broken_events_are_quarantined_with_a_reason(ds):
    rows = ds.sql("select reason_code, origin_offset from {s}.quarantine where origin like '%broken_messages.jsonl'")
    assert sorted(r["reason_code"] for r in rows) == sorted([
        "not_json", "not_json", "type_clash", "type_clash", "type_clash", "missing_operation",
        "unknown_operation", "unknown_operation", "missing_table", "missing_after_image",
        "missing_before_image", "missing_key", "missing_position",
    ])



# The specific cause of each broken event (quarantine.reason_detail, docs/quarantine.md), by
# the fixture's name for it.
DETAILS = {
    "not_json": "cut short: the text ends inside an object (105 characters)",
    "not_json_array": "valid JSON, but array<object<uuid: string>>, not an object",
    "type_clash_timestamp": "fields of the wrong type: source_timestamp (expected a timestamp)",
    "type_clash_payload": "fields of the wrong type: payload (expected an object)",
    "type_clash_primary_keys": "fields of the wrong type: source_metadata.primary_keys (expected an array of names)",
    "missing_operation": "the message names no operation",
    "unknown_operation": 'operation "UPSERT" is not one format datastream documents',
    "unknown_operation_lower_case": 'operation "insert" is not one format datastream documents',
    "missing_table": "INSERT without a table name (database demo)",
    "missing_after_image": "INSERT without an after image",
    "missing_before_image": "DELETE without a before image",
    "missing_key": 'no value for key column id in the after image (key ["id"])',
    "missing_position": "INSERT without a vendor position: neither `source_timestamp` nor `sort_keys`",
}


def test_quarantine_says_why_each_event_was_set_aside(ds):
    broken = json.loads((FIXTURES_DIR / "datastream" / "broken_messages.json").read_text(encoding="utf-8"))
    rows = ds.sql("select reason_detail, raw_value from {s}.quarantine where origin like '%broken_messages.jsonl'")
    by_raw = {r["raw_value"]: r["reason_detail"] for r in rows}
    assert {name: by_raw[raw] for name, raw in broken.items()} == DETAILS

def test_every_landed_event_is_staged_once_and_ends_in_one_place(ds):
    # (the dbt tests assert_every_landed_message_is_staged and assert_every_event_is_accounted_for
    # ran inside both builds)
    counts = ds.sql("""
        select
            (select count(*) from {s}_landing.raw_datastream) as landed,
            (select count(*) from {s}_staging.stg_datastream__events) as staged,
            (select count(*) from {s}_staging.stg_datastream__events where event_class = 'invalid') as invalid,
            (select count(*) from {s}.quarantine where source_format = 'datastream') as quarantined,
            (select count(*) from {s}.change_log) as logged
    """)[0]
    assert counts["landed"] == counts["staged"] and counts["invalid"] == counts["quarantined"]
    # three updates came as UPDATE-DELETE + UPDATE-INSERT with an unchanged key: one change each
    pairs = ds.sql("select table_id, row_key from {s}_staging.stg_datastream__update_pairs")
    assert sorted((r["table_id"], r["row_key"]) for r in pairs) == [
        ("ORCL.HR.EMPLOYEES", "AAAR3sAAEAAAACXAAA"), ("demo.orders", "1"), ("shop.customers", "2"),
    ]
    # 5 deliveries repeat an event (2 MySQL, 1 PG, 1 in the sample, 1 redelivered insert)
    assert counts["logged"] == counts["staged"] - counts["invalid"] - 5 - len(pairs)


def test_sample_stream(ds):
    live = state(ds, "shop.customers")
    assert {k: (r["is_deleted"], (r["row_image"] or {}).get("tier")) for k, r in live.items()} == {
        "1": (False, "gold"), "2": (False, "gold"), "3": (True, "bronze"),
    }
    assert live["1"]["row_image"]["name"] == "Ada L."


# --- shuffled and duplicated delivery = in-order delivery once -------------------------

SEEDS = [11, 22, 33]


@pytest.fixture(scope="module")
def shuffled(make_pipeline):
    """Per seed and source type: one history; `ord<seed>` gets it once in order (batch 1),
    `shuf<seed>` gets the same events spread over 3 batches, shuffled, with duplicates."""
    tables = {f"t_{source}": source for source in DATASTREAM_SOURCES}
    pipeline = make_pipeline("ds_shuf", {
        "cdc_formats": ["datastream"],
        # Oracle events carry no primary_keys: configured (else the row_id would be the key)
        "cdc_primary_keys": {f"{ns}{seed}.{table}": ["id"] for seed in SEEDS for ns in ("ord", "shuf") for table in tables},
    })
    histories, batches = {}, [[] for _ in range(3)]
    for seed in SEEDS:
        for table, source in tables.items():
            history = generate(table, random.Random(f"{seed}-{table}"), length=random.Random(seed).randint(15, 30),
                               allow_truncate=False)
            histories[(seed, table)] = history
            in_order = datastream_messages(history, random.Random(f"{seed}-{table}-events"), f"ord{seed}", source)
            batches[0].extend(in_order)
            messages = datastream_messages(history, random.Random(f"{seed}-{table}-events"), f"shuf{seed}", source)
            rng = random.Random(seed)
            for index, batch in enumerate(deliveries(messages, 3, rng, duplicate_rate=0.3)):
                batches[index].extend(batch)
    for batch in batches:
        pipeline.land("datastream", batch)
        pipeline.build()
    pipeline.histories = histories
    return pipeline


def current(pipeline, namespace):
    rows = pipeline.sql(
        "select table_id, row_key, is_deleted, to_json(row_image) as image, last_operation, committed_at "
        f"from {{s}}.current_state where table_id like '{namespace}.%'"
    )
    return {(r["table_id"].split(".", 1)[1], r["row_key"]): (r["is_deleted"], r["image"], r["last_operation"], r["committed_at"])
            for r in rows}


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffled_duplicated_delivery_equals_in_order_once(shuffled, seed):
    in_order = current(shuffled, f"ord{seed}")
    assert in_order, "the in-order stream produced no state"
    assert current(shuffled, f"shuf{seed}") == in_order
    # and both equal the history's true final state
    for (history_seed, table), history in shuffled.histories.items():
        if history_seed != seed:
            continue
        for key, image in history.final_state().items():
            is_deleted, row_image, _, _ = in_order[(table, key)]
            assert is_deleted == (image is None), (table, key)
            if image is not None:
                assert json.loads(row_image) == image, (table, key)


def test_shuffled_streams_are_not_quarantined(shuffled):
    assert shuffled.sql("select reason_code, raw_value from {s}.quarantine") == []
    sources = shuffled.sql("select distinct source_system from {s}.change_log")
    assert sorted(r["source_system"] for r in sources) == sorted(["mysql", "oracle", "postgresql", "sqlserver"])
