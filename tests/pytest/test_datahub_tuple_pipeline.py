"""DataHub Tuple records end to end: the seed's example table and pairing by _sequence_id_."""

from __future__ import annotations

import pytest

from .conftest import FIXTURES_DIR

pytestmark = pytest.mark.dbt


@pytest.fixture(scope="module")
def tuple_pipeline(make_pipeline):
    pipeline = make_pipeline("tuple", {"cdc_primary_keys": {"shop.products": ["id"]}})
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
    assert tuple_pipeline.sql("select reason_code from {s}.quarantine") == [{"reason_code": "not_json"}]
