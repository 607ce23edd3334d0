"""Row keys: one precedence for every format, configuration first (macro
`declared_key_columns`); tables keyed by a row hash or a physical row id are named, with the
setting that keys them (the warn-severity test `assert_every_table_has_a_primary_key` and
`cdc-pipeline summary`)."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.dbt


def canal(table: str, rows: list[dict], kind: str, es: int, pk: list[str] | None, old=None) -> str:
    return json.dumps({
        "data": rows, "old": old, "database": "shop", "table": table, "es": es, "id": es, "isDdl": False,
        "mysqlType": {"order_id": "int(11)", "note": "varchar(64)"}, "pkNames": pk, "sql": "",
        "sqlType": {"order_id": 4, "note": 12}, "ts": es, "type": kind,
    })


def warned(pipeline) -> list[dict]:
    result = pipeline.dbt("test", "--select", "assert_every_table_has_a_primary_key")
    (test_result,) = [r for r in result.result.results if r.node.resource_type == "test"]
    return [] if str(test_result.status) == "pass" else pipeline.sql(
        "select * from ({})".format(test_result.node.compiled_code.replace("{", "{{").replace("}", "}}")))


def test_an_unkeyed_table_is_named_with_the_entry_that_keys_it(make_pipeline, capsys):
    from python_udfs.pipeline.cli import command_summary

    pipeline = make_pipeline("unkeyed", {"cdc_formats": ["canal"]}, checks="each_build")  # reads the warning
    pipeline.land("canal", [
        canal("orders", [{"order_id": "1", "note": "a"}, {"order_id": "2", "note": None}], "INSERT", 1_700_000_000_000, None),
        canal("orders", [{"order_id": "1", "note": "b"}], "UPDATE", 1_700_000_001_000, None, old=[{"note": "a"}]),
        canal("keyed", [{"order_id": "1", "note": "a"}], "INSERT", 1_700_000_000_000, ["order_id"]),
    ])
    result = pipeline.build()
    statuses = {r.node.name: str(r.status) for r in result.result.results}
    assert statuses["assert_every_table_has_a_primary_key"] == "warn"

    (row,) = warned(pipeline)
    assert row["table_id"] == "shop.orders" and row["row_key_kinds"] == ["row_hash"]
    # a hash of the whole row: the update made a second row
    assert row["rows_in_state"] == 3
    # `note` is null in one change: only order_id is in every change
    assert row["candidate_key_columns"] == ["order_id"]
    assert json.loads(row["suggested_primary_keys"]) == {"shop.orders": ["order_id"]}

    command_summary(pipeline.schema)
    out = capsys.readouterr().out
    assert "Tables without a primary key" in out and "shop.orders" in out and "row_hash" in out

    # the suggested entry keys the table: one row per order, and no warning
    pipeline.extra_vars["cdc_primary_keys"] = json.loads(row["suggested_primary_keys"])
    pipeline.dbt("build", "--full-refresh")
    assert warned(pipeline) == []
    state = pipeline.sql("select row_key, row_image['note'] as note from {s}.current_state "
                         "where table_id = 'shop.orders' and not is_deleted order by row_key")
    assert state == [{"row_key": "1", "note": "b"}, {"row_key": "2", "note": None}]


def datastream_insert(position: int, primary_keys: list[str], payload: dict) -> str:
    """A Datastream MySQL INSERT event (the shape of Google's DataflowTemplates test files)."""
    return json.dumps({
        "stream_name": "projects/p/locations/l/streams/s", "read_method": "mysql-cdc-binlog",
        "object": "library_authors", "schema_key": "k", "uuid": f"00000000-0000-0000-0000-{position:012d}",
        "read_timestamp": "2024-01-01T00:00:10Z", "source_timestamp": f"2024-01-01T00:00:{position:02d}Z",
        "sort_keys": [1704067200000 + position, "mysql-bin.000001", position * 100],
        "source_metadata": {"table": "authors", "database": "library", "primary_keys": primary_keys,
                            "log_file": "mysql-bin.000001", "log_position": position * 100,
                            "change_type": "INSERT", "is_deleted": False},
        "payload": payload,
    })


def test_configuration_overrides_the_key_a_message_names(make_pipeline):
    pipeline = make_pipeline("keyprec", {
        "cdc_formats": ["canal", "datastream"],
        # Canal names `line_id`; the configuration keys the table by `sku`. Datastream names `id`,
        # a column its payload does not have (as in Google's test files): `author_id` keys it.
        "cdc_primary_keys": {"shop.items": ["sku"], "library.authors": ["author_id"]},
    })
    pipeline.land("canal", [json.dumps({
        "data": [{"line_id": "1", "sku": "A-1"}, {"line_id": "2", "sku": "B-2"}], "old": None,
        "database": "shop", "table": "items", "es": 1_700_000_000_000, "id": 1, "isDdl": False,
        "mysqlType": {"line_id": "int(11)", "sku": "varchar(16)"}, "pkNames": ["line_id"], "sql": "",
        "sqlType": {"line_id": 4, "sku": 12}, "ts": 1_700_000_000_000, "type": "INSERT",
    })])
    pipeline.land("datastream", [
        datastream_insert(1, ["id"], {"author_id": 7, "name": "Ann"}),
        datastream_insert(2, ["id"], {"author_id": 8, "name": "Bo"}),
    ])
    pipeline.build()
    items = pipeline.sql("select row_key, row_key_kind, primary_key_columns from {s}.change_log "
                         "where table_id = 'shop.items' order by row_key")
    assert items == [{"row_key": "A-1", "row_key_kind": "primary_key", "primary_key_columns": ["sku"]},
                     {"row_key": "B-2", "row_key_kind": "primary_key", "primary_key_columns": ["sku"]}]
    authors = pipeline.sql("select row_key, primary_key_columns from {s}.change_log "
                           "where table_id = 'library.authors' order by row_key")
    assert authors == [{"row_key": "7", "primary_key_columns": ["author_id"]},
                       {"row_key": "8", "primary_key_columns": ["author_id"]}]
    assert pipeline.sql("select * from {s}.quarantine where source_format = 'datastream'") == []


def test_a_key_absent_from_the_row_falls_back_to_the_tables_seen_key(make_pipeline):
    # No configuration: Google's test files have an Authors event naming `id`, a column its
    # payload lacks, while the table's other events name `author_id`. The table's latest key
    # whose values the rows carried keys it, in the same batch and in a later one; a table
    # never seen with a usable key still quarantines the event as missing_key.
    pipeline = make_pipeline("keyseen", {"cdc_formats": ["datastream"]})
    pipeline.land("datastream", [
        datastream_insert(1, ["author_id"], {"author_id": 7, "name": "Ann"}),
        datastream_insert(2, ["id"], {"author_id": 8, "name": "Bo"}),
        datastream_insert(3, ["id"], {"book_id": 1, "title": "X"}).replace('"authors"', '"books"'),
    ])
    pipeline.build()
    pipeline.land("datastream", [datastream_insert(4, ["id"], {"author_id": 9, "name": "Cy"})])
    pipeline.build()
    authors = pipeline.sql("select row_key, row_key_kind, primary_key_columns from {s}.change_log "
                           "where table_id = 'library.authors' order by row_key")
    assert authors == [{"row_key": str(n), "row_key_kind": "primary_key", "primary_key_columns": ["author_id"]}
                       for n in (7, 8, 9)]
    quarantined = pipeline.sql("select reason_code, raw_value from {s}.quarantine where source_format = 'datastream'")
    assert [r["reason_code"] for r in quarantined] == ["missing_key"]
    assert '"books"' in quarantined[0]["raw_value"]


def test_every_format_falls_back_to_the_tables_seen_key_landed_no_later(make_pipeline):
    # Canal (the mechanism after staging is the same for every format): events whose pkNames
    # name a column their rows lack take their table's key seen in a landing no later than
    # theirs, as changes (not quarantined); a table first seen keyed in a later landing leaves
    # the earlier event quarantined, in an incremental build and in a full rebuild alike.
    pipeline = make_pipeline("seenkeys", {"cdc_formats": ["canal"]})
    es = 1_700_000_000_000
    pipeline.land("canal", [
        canal("orders", [{"order_id": "1", "note": "a"}, {"order_id": "2", "note": "b"}], "INSERT", es, ["order_id"]),
        canal("lonely", [{"order_id": "5", "note": "x"}], "INSERT", es + 1, ["id"]),
    ])
    pipeline.build()
    pipeline.land("canal", [
        canal("orders", [{"order_id": "1", "note": "c"}], "UPDATE", es + 2_000, ["id"], old=[{"note": "a"}]),
        canal("orders", [{"order_id": "2", "note": "b"}], "DELETE", es + 3_000, ["id"]),
        canal("orders", [{"order_id": "3", "note": "d"}], "INSERT", es + 4_000, ["id"]),
        canal("orders", [{"note": "no key"}], "INSERT", es + 5_000, ["id"]),
        canal("lonely", [{"order_id": "6", "note": "y"}], "INSERT", es + 6_000, ["order_id"]),
    ])
    pipeline.build()

    def outcome() -> tuple:
        changes = pipeline.sql(
            "select table_id, operation, row_key, row_key_kind, primary_key_columns, previous_row_key "
            "from {s}.change_log order by table_id, sort_key")
        state = pipeline.sql("select table_id, row_key, row_image['note'] as note from {s}.current_state "
                             "where not is_deleted order by table_id, row_key")
        quarantined = pipeline.sql("select reason_code, raw_value from {s}.quarantine order by landed_at")
        return changes, state, quarantined

    changes, state, quarantined = outcome()
    orders = [c for c in changes if c["table_id"] == "shop.orders"]
    assert [(c["operation"], c["row_key"]) for c in orders] == [
        ("insert", "1"), ("insert", "2"), ("update", "1"), ("delete", "2"), ("insert", "3")]
    assert {(c["row_key_kind"], tuple(c["primary_key_columns"])) for c in orders} == {("primary_key", ("order_id",))}
    assert all(c["previous_row_key"] is None for c in orders)
    assert state == [{"table_id": "shop.lonely", "row_key": "6", "note": "y"},
                     {"table_id": "shop.orders", "row_key": "1", "note": "c"},
                     {"table_id": "shop.orders", "row_key": "3", "note": "d"}]
    # the row without the seen key's column, and the event landed before its table's key was seen
    assert [r["reason_code"] for r in quarantined] == ["missing_key", "missing_key"]
    assert '"lonely"' in quarantined[0]["raw_value"] and "no key" in quarantined[1]["raw_value"]
    progress = pipeline.sql("select sum(quarantined_messages) as quarantined, sum(messages_with_row_changes) as "
                            "with_changes from {s}.stream_progress")
    assert progress == [{"quarantined": 2, "with_changes": 5}]

    pipeline.rebuild()
    assert outcome() == (changes, state, quarantined)
