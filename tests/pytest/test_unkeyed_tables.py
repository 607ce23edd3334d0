"""Tables keyed by a row hash or a physical row id are named, with the setting that keys them:
the warn-severity test `assert_every_table_has_a_primary_key` and `cdc-pipeline summary`."""

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

    pipeline = make_pipeline("unkeyed", {"cdc_formats": ["canal"]})
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
