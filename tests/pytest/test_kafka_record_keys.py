"""The Kafka record key lands with its message (`message_key`) and keys Debezium tables.

Standard Debezium puts a table's primary key in the Kafka record key, not in the value. A
consumer dump with keys (`kcat -C -J`: one JSON object per record with topic, partition,
offset, ts, key and payload) lands each record's payload as the message and its key as
`message_key`, with the record's own lineage; a user's Kafka sink table maps its key column.
Without any `cdc_primary_keys`, Debezium tables are then keyed by the record key's fields,
from a plain JSON key or a Connect `{"schema", "payload"}` key (the key/value pairs of
Paimon's Debezium test file, read in place from ../shared/conformance/).
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from .conftest import CONFORMANCE_DIR, PROJECT_DIR, record_lines

pytestmark = pytest.mark.dbt

# Connect key/value line pairs (JSON converter with schemas): KEY line, then VALUE line.
PAIMON_PAIRS = CONFORMANCE_DIR / "debezium" / "paimon-avro-table-schema-alltype-debezium-avro-data-1.txt"
TS = 1_700_000_000_000


def debezium(op: str, before: dict | None, after: dict | None, pos: int, table: str = "orders") -> str:
    return json.dumps({
        "before": before, "after": after, "op": op, "ts_ms": TS + pos,
        "source": {"connector": "mysql", "db": "inventory", "table": table, "file": "binlog.000001",
                   "pos": pos, "row": 0, "ts_ms": TS + pos},
    })


def record(topic: str, partition: int, offset: int, key: str | None, payload: str | None) -> str:
    """One record of `kcat -C -J` output (key and payload are the record's bytes as text)."""
    return json.dumps({
        "topic": topic, "partition": partition, "offset": offset, "tstype": "create",
        "ts": TS + offset, "broker": 1, "key": key, "payload": payload,
    })


def orders_records() -> list[str]:
    key = lambda n: json.dumps({"id": n})  # noqa: E731
    return [
        record("dbz.inventory.orders", 0, 10, key(1), debezium("c", None, {"id": 1, "name": "a"}, 100)),
        record("dbz.inventory.orders", 0, 11, key(2), debezium("c", None, {"id": 2, "name": "x"}, 110)),
        record("dbz.inventory.orders", 0, 12, key(1), debezium("u", {"id": 1, "name": "a"}, {"id": 1, "name": "b"}, 120)),
        record("dbz.inventory.orders", 0, 13, key(2), debezium("d", {"id": 2, "name": "x"}, None, 130)),
        record("dbz.inventory.orders", 0, 14, key(2), None),  # the tombstone after a delete
    ]


def paimon_records() -> list[str]:
    lines = record_lines(PAIMON_PAIRS)
    assert len(lines) % 2 == 0 and lines
    return [record("dbz.alltypes", 1, n, key, value) for n, (key, value) in enumerate(zip(lines[::2], lines[1::2]))]


@pytest.fixture(scope="module")
def keyed(make_pipeline):
    pipeline = make_pipeline("kafkakey", {"cdc_formats": ["debezium"], "cdc_primary_keys": {}})
    plain = debezium("c", None, {"id": 7, "name": "no key"}, 100, table="plain")
    dump = orders_records() + paimon_records() + [plain]
    landed = pipeline.land("debezium", dump, name="dump-1.jsonl")
    # the same records again in another dump (a consumer that re-read), with one new record
    again = pipeline.land("debezium", orders_records()[3:] + [
        record("dbz.inventory.orders", 0, 15, json.dumps({"id": 3}), debezium("c", None, {"id": 3, "name": "c"}, 150)),
    ], name="dump-2.jsonl")
    pipeline.build()
    return pipeline, landed, again, len(dump)


def test_a_consumer_dump_lands_each_record_once_with_its_lineage(keyed):
    pipeline, landed, again, dumped = keyed
    assert landed == dumped and again == 1
    rows = {(r["origin"], r["origin_partition"], r["origin_offset"]): r for r in pipeline.sql(
        "select * from {s}_landing.raw_debezium")}
    assert len(rows) == dumped + 1
    first = rows[("dbz.inventory.orders", 0, 10)]
    assert first["message_key"] == '{"id": 1}'
    assert json.loads(first["raw_value"])["after"] == {"id": 1, "name": "a"}
    assert first["stream_name"] == "dbz.inventory.orders/0"
    assert first["origin_timestamp"] == dt.datetime(2023, 11, 14, 22, 13, 20, 10_000)
    # a tombstone record (null payload) lands as a null value; it is a control event downstream
    assert rows[("dbz.inventory.orders", 0, 14)]["raw_value"] == "null"
    # a line that is no record keeps its file lineage
    (plain,) = [r for r in rows.values() if r["origin_partition"] is None]
    assert plain["origin"].endswith("dump-1.jsonl") and plain["origin_offset"] == dumped
    assert plain["message_key"] is None and plain["stream_name"] == "debezium"


def test_a_dump_lands_the_same_records_read_by_spark(keyed, make_pipeline, monkeypatch):
    """The fixture's dumps are small, so they were read in Python (landing's
    PYTHON_READ_BYTES); read by Spark's text reader instead, the same dump lands the same
    records, each once, with the same lineage."""
    from python_udfs.pipeline import landing

    pipeline, *_ = keyed
    other = make_pipeline("kafkaspark", {"cdc_formats": ["debezium"], "cdc_primary_keys": {}})
    monkeypatch.setattr(landing, "PYTHON_READ_BYTES", 0)
    dump = orders_records() + paimon_records()
    # the fixture's two dumps, the first with two records dumped twice
    assert other.land("debezium", dump + dump[:2], name="dump-1.jsonl") == len(dump)
    assert other.land("debezium", orders_records()[3:] + [
        record("dbz.inventory.orders", 0, 15, json.dumps({"id": 3}), debezium("c", None, {"id": 3, "name": "c"}, 150)),
    ], name="dump-2.jsonl") == 1
    columns = "origin, origin_partition, origin_offset, origin_timestamp, message_key, stream_name, raw_value"

    def records(p):
        return {tuple(r.values()) for r in p.sql(
            f"select {columns} from {{s}}_landing.raw_debezium where origin_partition is not null")}

    assert records(other) == records(pipeline)


def test_debezium_tables_are_keyed_by_the_record_key(keyed):
    pipeline, *_ = keyed
    orders = pipeline.sql(
        "select row_key, row_key_kind, primary_key_columns, row_image['name'] as name "
        "from {s}.current_state where table_id = 'inventory.orders' and not is_deleted order by row_key")
    # the update changed row 1 in place and the delete removed row 2
    assert orders == [
        {"row_key": "1", "row_key_kind": "primary_key", "primary_key_columns": ["id"], "name": "b"},
        {"row_key": "3", "row_key_kind": "primary_key", "primary_key_columns": ["id"], "name": "c"},
    ]
    # Connect-envelope keys: the fields of the key's payload
    alltypes = pipeline.sql(
        "select row_key, row_key_kind, primary_key_columns from {s}.current_state "
        "where table_id like '%all_types_table' order by row_key")
    assert alltypes == [{"row_key": str(n), "row_key_kind": "primary_key", "primary_key_columns": ["_id"]}
                        for n in (1, 2)]
    # a message landed without a key keeps the fallback (a row hash), and is named for it
    (plain,) = pipeline.sql("select row_key_kind from {s}.current_state where table_id = 'inventory.plain'")
    assert plain["row_key_kind"] == "row_hash"
    assert pipeline.sql("select count(*) as n from {s}.quarantine")[0]["n"] == 0


def test_configuration_overrides_the_record_key(keyed):
    pipeline, *_ = keyed
    pipeline.extra_vars["cdc_primary_keys"] = {"inventory.orders": ["name"]}
    try:
        pipeline.dbt("run", "--full-refresh", "--select", "+current_state")
        keys = pipeline.sql("select row_key from {s}.current_state where table_id = 'inventory.orders' "
                            "and not is_deleted order by row_key")
        assert [r["row_key"] for r in keys] == ["b", "c"]
    finally:
        pipeline.extra_vars["cdc_primary_keys"] = {}
        pipeline.dbt("run", "--full-refresh", "--select", "+current_state")


def test_a_kafka_sink_table_maps_its_key_column(make_pipeline):
    from pyspark.sql import SparkSession

    pipeline = make_pipeline("sinkkey", {"cdc_formats": ["debezium"], "cdc_primary_keys": {}})
    sink = f"{pipeline.schema}_kafka.dbz_topic"
    spark = SparkSession.builder.getOrCreate()
    spark.sql(f"create schema if not exists {pipeline.schema}_kafka")
    # the columns of Spark's Kafka source (key and value are bytes), plus when the row arrived
    spark.sql(f"create table {sink} (key binary, value binary, topic string, `partition` int, "
              "`offset` bigint, `timestamp` timestamp, ingested_at timestamp) using parquet")
    spark.createDataFrame(
        [(json.dumps({"id": n}).encode(), payload.encode(), "dbz", 0, offset,
          dt.datetime(2024, 1, 1), dt.datetime(2024, 1, 1, 0, 0, offset))
         for offset, (n, payload) in enumerate([
             (1, debezium("c", None, {"id": 1, "name": "a"}, 100)),
             (1, debezium("u", {"id": 1, "name": "a"}, {"id": 1, "name": "b"}, 110)),
         ], start=1)],
        "key binary, value binary, topic string, partition int, offset bigint, timestamp timestamp, ingested_at timestamp",
    ).write.insertInto(sink)
    columns = {
        "raw_value": "cast(value as string)",
        "stream_name": "concat(topic, '/', cast(`partition` as string))",
        "origin": "topic",
        "origin_partition": "`partition`",
        "origin_offset": "`offset`",
        "origin_timestamp": "`timestamp`",
        "landed_at": "ingested_at",
        "landing_batch_id": "cast(null as string)",
    }
    source = {"schema": f"{pipeline.schema}_kafka", "identifier": "dbz_topic", "columns": columns}

    # a mapping written before `message_key` existed still builds: the key is null
    pipeline.extra_vars["cdc_sources"] = {"debezium": source}
    pipeline.build()
    kinds = pipeline.sql("select row_key_kind, count(*) as n from {s}.current_state group by 1")
    assert kinds == [{"row_key_kind": "row_hash", "n": 2}]

    columns["message_key"] = "cast(key as string)"
    pipeline.dbt("build", "--full-refresh")
    state = pipeline.sql("select row_key, row_key_kind, row_image['name'] as name from {s}.current_state")
    assert state == [{"row_key": "1", "row_key_kind": "primary_key", "name": "b"}]


def test_a_landing_table_from_before_gets_the_key_column(make_pipeline):
    from pyspark.sql import SparkSession

    pipeline = make_pipeline("oldlanding", {"cdc_formats": ["debezium", "canal"]})
    spark = SparkSession.builder.getOrCreate()
    spark.sql(f"create schema if not exists {pipeline.schema}_landing")
    # the landing table as created before `message_key` existed
    spark.sql(f"create table {pipeline.schema}_landing.raw_debezium (raw_value string, stream_name string, "
              "origin string, origin_partition int, origin_offset bigint, origin_timestamp timestamp, "
              "landed_at timestamp, landing_batch_id string) using parquet")
    assert pipeline.land("debezium", [debezium("c", None, {"id": 1, "name": "a"}, 100)]) == 1
    columns = [f.name for f in spark.table(f"{pipeline.schema}_landing.raw_debezium").schema.fields]
    assert columns[-1] == "message_key" and columns.count("message_key") == 1
    assert "message_key" in [f.name for f in spark.table(f"{pipeline.schema}_landing.raw_canal").schema.fields]
    log = pipeline.work_dir / "logs" / "dbt.log"
    start = len(log.read_text(encoding="utf-8")) if log.exists() else 0
    pipeline.dbt("run-operation", "create_landing_tables", "--quiet")  # nothing left to add: a no-op
    # (the listing's descriptions show every table's columns: no table is asked for them)
    noop = log.read_text(encoding="utf-8")[start:]
    assert "show table extended in" in noop and "limit 0" not in noop and "add columns" not in noop

    # --stream names the stream of records too (else it is their topic/partition)
    from python_udfs.pipeline.landing import land_files

    dump = pipeline.work_dir / "named.jsonl"
    dump.write_text(orders_records()[0] + "\n", encoding="utf-8")
    land_files(spark, "debezium", [dump], project_dir=PROJECT_DIR, landing_schema=f"{pipeline.schema}_landing",
               stream_name="orders", scratch_dir=pipeline.work_dir / "scratch", progress=False)
    (named,) = pipeline.sql("select stream_name, origin from {s}_landing.raw_debezium where origin_partition = 0")
    assert named == {"stream_name": "orders", "origin": "dbz.inventory.orders"}

    pipeline.build()
    assert pipeline.sql("select count(*) as n from {s}.current_state")[0]["n"] == 2
