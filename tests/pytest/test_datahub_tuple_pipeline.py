"""DataHub Tuple records end to end: the seed's example table and pairing by _sequence_id_."""

from __future__ import annotations

import json

import pytest

from .conftest import FIXTURES_DIR

pytestmark = pytest.mark.dbt
# Only the format the tests land: the other formats' empty models add build time, not coverage.
ONLY_DATAHUB_TUPLE = {"cdc_formats": ["datahub_tuple"]}


@pytest.fixture(scope="module")
def tuple_pipeline(make_pipeline):
    pipeline = make_pipeline("tuple", {**ONLY_DATAHUB_TUPLE, "cdc_primary_keys": {"shop.products": ["id"]}})
    lines = (FIXTURES_DIR / "datahub_tuple" / "seed000_tuple_example.jsonl").read_text().splitlines()
    # the update's halves arrive in two batches, after half first
    pipeline.land("datahub_tuple", [lines[0], lines[2]])
    pipeline.build()
    pipeline.land("datahub_tuple", [lines[1], lines[3], "not json at all"])
    pipeline.build()
    return pipeline


def test_seed_example_change_log(tuple_pipeline):
    rows = tuple_pipeline.sql(
        "select operation, row_key, source_position, committed_at, before, after, table_id, source_table "
        "from {s}.change_log order by sort_key"
    )
    assert [(r["operation"], r["source_position"]) for r in rows] == [
        ("insert", "1649991610688000000"),
        ("update", "1649991610688000001"),
        ("delete", "1649991610688000002"),
    ]
    assert [str(r["committed_at"]) for r in rows] == ["2022-04-15 03:02:06", "2022-04-15 03:02:36", "2022-04-15 03:02:54"]
    assert all(r["row_key"] == "1" and r["table_id"] == "shop.products" and r["source_table"] == "products" for r in rows)
    update = rows[1]
    assert update["after"] == {"id": "1", "name": "apple", "price": "3.95"}
    assert "_sequence_id_" not in update["after"]


def test_seed_example_ends_deleted(tuple_pipeline):
    state = tuple_pipeline.sql("select is_deleted from {s}.current_state")
    assert state == [{"is_deleted": True}]
    assert tuple_pipeline.sql("select * from {s}.unpaired_update_halves") == []


def test_broken_record_is_quarantined(tuple_pipeline):
    assert tuple_pipeline.sql("select reason_code, reason_detail from {s}.quarantine") == [
        {"reason_code": "not_json", "reason_detail": 'not valid JSON, starting "not json at all"'},
    ]


def tuple_record(op, seq, before_flag, after_flag, execute_time, **columns):
    return json.dumps({**columns, "_sequence_id_": seq, "_operation_type_": op, "_execute_time_": execute_time,
                       "_source_table_": "shop.items", "_before_image_": before_flag, "_after_image_": after_flag})


def test_microsecond_times_and_boolean_image_flags(make_pipeline):
    """DataHub TIMESTAMP is µs; image flags as JSON booleans, 'TRUE' or '1' mean Y."""
    pipeline = make_pipeline("tupleflags", {**ONLY_DATAHUB_TUPLE, "cdc_primary_keys": {"shop.items": ["id"]}})
    pipeline.land("datahub_tuple", [
        tuple_record("I", "100", False, True, 1649991726000123, id=1, v="a"),           # 16 digits: µs
        tuple_record("U", "101", "TRUE", "false", "1649991756000000000", id=1, v="a"),  # 19 digits: ns
        tuple_record("U", "101", "0", "1", "1649991756", id=1, v="b"),                  # 10 digits: s
        tuple_record("D", "102", True, False, "99999999999999999999999", id=1, v="b"),  # no time at all
        tuple_record("I", "x7", "N", "Y", "1649991726000", id=2, v="c"),                # no usable position
    ])
    pipeline.build()
    rows = pipeline.sql("select operation, committed_at, before, after from {s}.change_log order by sort_key")
    assert [(r["operation"], str(r["committed_at"])) for r in rows] == [
        ("insert", "2022-04-15 03:02:06.000123"), ("update", "2022-04-15 03:02:36"), ("delete", "None"),
    ]
    assert rows[1]["before"]["v"] == "a" and rows[1]["after"]["v"] == "b"
    assert pipeline.sql("select * from {s}.unpaired_update_halves") == []
    assert pipeline.sql("select reason_code from {s}.quarantine") == [{"reason_code": "missing_position"}]


def test_configured_column_types_type_the_change_log_and_typed_views(make_pipeline):
    """Tuple records carry no types: `cdc_column_types` declares them per table."""
    pipeline = make_pipeline("tupletypes", {
        **ONLY_DATAHUB_TUPLE,
        "cdc_primary_keys": {"shop.items": ["id"]},
        # `weight` is in no record: it gets no type; `v` is not declared: it stays string
        "cdc_column_types": {"shop.items": {"id": "bigint", "price": "decimal(10,2)", "weight": "double"}},
    })
    pipeline.land("datahub_tuple", [
        tuple_record("I", "100", "N", "Y", "1649991726000", id=1, v="a", price="3.50"),
        tuple_record("I", "101", "N", "Y", "1649991727000", id=2, v="b", price="oops"),
    ])
    pipeline.build()
    types = pipeline.sql("select column_types from {s}.change_log")
    assert types == [{"column_types": {"id": "bigint", "v": "string", "price": "decimal(10,2)"}}] * 2
    shown = pipeline.dbt("show", "--inline", "select * from ({{ typed_current_state('shop.items') }}) order by id")
    table = shown.result.results[0].agate_table
    rows = [dict(zip(table.column_names, row)) for row in table.rows]
    # (dbt show hands arrays over as JSON text)
    assert [(r["id"], str(r["price"]), r["v"], json.loads(r["_uncastable_columns"])) for r in rows] == [
        (1, "3.50", "a", []), (2, "None", "b", ["price"]),
    ]
