"""Property: incremental builds equal a full rebuild and the true final state.

Many independent generated histories (one table each, each from its own seed), in every
format, are delivered together in random batches: every message lands in a random batch, in
shuffled order, some twice (at-least-once). `dbt build` runs after each batch (all formats
in one project, as when one project reads several vendors: one build per batch keeps the
test's cost to a few builds). The final current_state must equal
(a) the history's true final state, and (b) a `--full-refresh` rebuild of the same landings;
row_history and stream_progress must agree as well. CDC_PROPERTY_TABLES / CDC_PROPERTY_BATCHES scale it up;
CDC_PROPERTY_SEED picks other histories.
"""

from __future__ import annotations

import functools
import os
import random

import pytest

from .cdc_history import (
    canal_messages,
    datahub_tuple_messages,
    datastream_messages,
    dataworks_messages,
    debezium_messages,
    deliveries,
    dts_avro_messages,
    generate,
    shareplex_messages,
)

pytestmark = pytest.mark.dbt

TABLES = int(os.environ.get("CDC_PROPERTY_TABLES", "10"))
BATCHES = int(os.environ.get("CDC_PROPERTY_BATCHES", "3"))
# Another seed gives other histories, batches and shuffles (CI runs the default one; sweep
# more with e.g. `for s in 1 2 3; do CDC_PROPERTY_SEED=$s pytest -k incremental; done`).
SEED = os.environ.get("CDC_PROPERTY_SEED", "")

FORMATS = {
    # format id: (serializer, table_id prefix, supports truncate)
    "dataworks": (dataworks_messages, "prop.", True),
    "datahub_tuple": (datahub_tuple_messages, "prop.", False),
    "canal": (canal_messages, "prop.", True),
    "shareplex": (shareplex_messages, "prop.", True),
    # SharePlex whose `key` holds only the key column, updates of one column: partial images
    # merged over the prior row, however late they arrive
    "shareplex_partial": (functools.partial(shareplex_messages, key_only=True), "prop.", True),
    "debezium": (debezium_messages, "prop.", True),
    # Datastream: an update may be two events (UPDATE-DELETE + UPDATE-INSERT), landed in any
    # batches and order: one change when the key is unchanged, two when it changed
    "datastream": (datastream_messages, "prop.", False),
    "dts_avro": (dts_avro_messages, "prop.", True),
}
# Variants of a format (parameter id -> format id).
VARIANTS = {"shareplex_partial": "shareplex"}
# Debezium writes a primary-key change as a delete of the old key and a create of the new;
# Datastream as an UPDATE-DELETE of the old key and an UPDATE-INSERT of the new.
KEY_CHANGE_ROWS = {"debezium": 2, "datastream": 2}

STATE_QUERY = """
    select table_id, row_key, is_deleted, to_json(row_image) as row_image, sort_key, last_change_id
    from {s}.current_state
"""
HISTORY_QUERY = """
    select table_id, row_key, change_id, operation, is_deleted, to_json(row_image) as row_image,
           sort_key, valid_from, valid_to, ended_by, is_current
    from {s}.row_history
"""
# stream_progress without its query-time freshness
PROGRESS_QUERY = """
    select source_format, stream_name, messages_landed, row_events, control_events,
           quarantined_events, messages_with_row_changes, control_messages, quarantined_messages,
           tombstones_skipped, last_heartbeat_at, last_change_committed_at, last_change_landed_at,
           last_landed_at, last_source_position, last_change_lag_seconds
    from {s}.stream_progress
"""


def as_set(rows):
    return {tuple(sorted(r.items())) for r in rows}


def test_incremental_equals_full_rebuild_and_truth(make_pipeline):
    """Every format's histories in one stream (each format's tables are its own, as when one
    project reads several vendors): each batch lands in every format, then one build."""
    pipeline = make_pipeline("prop", {
        "cdc_formats": sorted({VARIANTS.get(variant, variant) for variant in FORMATS}),
        "cdc_primary_keys": {f"prop.{variant}_t{n}": ["id"] for variant in FORMATS for n in range(TABLES)},
    }, checks="each_build")  # the data tests check every random batch too
    histories: dict[str, list] = {}
    batches: dict[str, list[list[str]]] = {}
    for variant in sorted(FORMATS):
        serializer, _, truncates = FORMATS[variant]
        histories[variant], batches[variant] = [], [[] for _ in range(BATCHES)]
        for n in range(TABLES):
            rng = random.Random(f"{SEED}{variant}-{n}")
            history = generate(f"{variant}_t{n}", rng, length=rng.randint(8, 30), allow_truncate=truncates,
                               single_column_updates=variant in VARIANTS)
            histories[variant].append(history)
            messages = serializer(history, rng)
            for index, batch in enumerate(deliveries(messages, BATCHES, rng)):
                batches[variant][index].extend(batch)
    for index in range(BATCHES):
        for variant in sorted(FORMATS):
            batch = batches[variant][index]
            random.Random(f"{SEED}{variant}-batch-{index}").shuffle(batch)
            if batch:
                pipeline.land(VARIANTS.get(variant, variant), batch, name=f"batch-{index:03d}-{variant}.jsonl")
        pipeline.build()

    incremental_state = as_set(pipeline.sql(STATE_QUERY))
    incremental_history = as_set(pipeline.sql(HISTORY_QUERY))
    incremental_progress = as_set(pipeline.sql(PROGRESS_QUERY))

    # (a) the true final state of every history
    actual = {(r["table_id"], r["row_key"]): r for r in pipeline.sql(
        "select table_id, row_key, is_deleted, row_image from {s}.current_state")}
    changes_per_table = {r["table_id"]: r["n"] for r in pipeline.sql(
        "select table_id, count(*) as n from {s}.change_log group by table_id")}
    for variant in sorted(FORMATS):
        _, prefix, _ = FORMATS[variant]
        format_id = VARIANTS.get(variant, variant)
        for history in histories[variant]:
            for key, image in history.final_state().items():
                row = actual.get((prefix + history.table, key))
                assert row is not None, (variant, history.table, key)
                if image is None:
                    assert row["is_deleted"], (variant, history.table, key)
                else:
                    assert not row["is_deleted"] and row["row_image"] == image, (variant, history.table, key, row, image)
        changes = sum(
            KEY_CHANGE_ROWS.get(format_id, 1) if c.op == "update" and c.before["id"] != c.after["id"] else 1
            for h in histories[variant] for c in h.changes if c.op != "truncate"
        )
        landed = sum(changes_per_table.get(prefix + h.table, 0) for h in histories[variant])
        assert landed == changes, (variant, landed, changes)
    assert pipeline.sql("select * from {s}.unpaired_update_halves") == []
    assert pipeline.sql("select * from {s}.quarantine") == []

    # (b) a full rebuild of the same landings gives the same tables
    pipeline.rebuild()
    assert as_set(pipeline.sql(STATE_QUERY)) == incremental_state
    assert as_set(pipeline.sql(HISTORY_QUERY)) == incremental_history
    assert as_set(pipeline.sql(PROGRESS_QUERY)) == incremental_progress
