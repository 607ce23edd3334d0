"""Re-processing quarantine after a fix: a legacy-layout Canal DELETE is quarantined until the
stream is declared legacy, then `requeue` lands it again and the next build applies it, once.
A message that is still broken stays open; requeuing twice changes nothing."""

from __future__ import annotations

import json

import pytest
from pyspark.sql import SparkSession

from python_udfs.pipeline.requeue import requeue_quarantined

pytestmark = pytest.mark.dbt

T0 = 1_700_000_000_000


def canal(type_, rows, old=None, *, es, id_):
    return json.dumps({
        "data": rows, "old": old, "database": "shop", "table": "orders", "es": es, "id": id_,
        "isDdl": False, "pkNames": ["id"], "mysqlType": {"id": "bigint", "v": "varchar(8)"},
        "sqlType": {"id": -5, "v": 12}, "sql": "", "ts": es + 5, "type": type_,
    })


@pytest.fixture(scope="module")
def pipeline(make_pipeline):
    return make_pipeline("requeue", {"cdc_formats": ["canal"]})


def requeue(pipeline, **selection):
    return requeue_quarantined(
        SparkSession.builder.getOrCreate(), schema=pipeline.schema,
        landing_schema=f"{pipeline.schema}_landing", **selection,
    )


def open_reasons(pipeline):
    return sorted((r["reason_code"], r["origin"].startswith("requeue/"))
                  for r in pipeline.sql("select reason_code, origin from {s}.quarantine_open"))


def test_requeue_after_a_fix_applies_the_message_once(pipeline):
    pipeline.land("canal", [
        canal("INSERT", [{"id": "1", "v": "a"}, {"id": "2", "v": "b"}], es=T0, id_=1),
        # DTS before 2022-03-20: the deleted row is in `old`, `data` is null
        canal("DELETE", None, [{"id": "2", "v": "b"}], es=T0 + 1000, id_=2),
        '{"type": "INSERT", "data": [',
    ])
    pipeline.build()
    assert open_reasons(pipeline) == [("legacy_layout", False), ("not_json", False)]
    live = pipeline.sql("select row_key from {s}.current_state where not is_deleted order by row_key")
    assert len(live) == 2

    # The fix: declare the stream legacy, then requeue only what the fix addresses.
    pipeline.extra_vars["cdc_canal_legacy_layout"] = True
    result = requeue(pipeline, reasons=["legacy_layout"])
    assert result.messages == {"canal": 1}
    assert result.reasons == {("canal", "legacy_layout"): 1}
    pipeline.build()  # its data tests include the accounting of every landed message

    deletes = pipeline.sql("select row_key from {s}.change_log where operation = 'delete'")
    assert len(deletes) == 1
    state = pipeline.sql("select is_deleted, count(*) n from {s}.current_state group by 1 order by 1")
    assert [(r["is_deleted"], r["n"]) for r in state] == [(False, 1), (True, 1)]
    assert pipeline.sql("select count(*) n from {s}.quarantine")[0]["n"] == 2  # the record stays
    assert open_reasons(pipeline) == [("not_json", False)]

    # Requeuing the same selection again finds nothing; the broken message fails again and
    # its new copy is the open one.
    assert requeue(pipeline, reasons=["legacy_layout"]).messages == {}
    assert requeue(pipeline).messages == {"canal": 1}
    pipeline.build()
    assert open_reasons(pipeline) == [("not_json", True)]
    assert pipeline.sql("select count(*) n from {s}.change_log")[0]["n"] == 3
    copies = pipeline.sql(
        "select origin, origin_offset from {s}_landing.raw_canal where origin like 'requeue/%'"
    )
    assert len(copies) == 2 and {r["origin_offset"] for r in copies} == {2, 3}
