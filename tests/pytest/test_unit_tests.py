"""The dbt unit tests pass: the state logic and the halves held unpaired
(models/marts/_marts__unit_tests.yml), the pairing of update halves, the keying of
changes by their table's previously seen key and the per-batch counts of int_stream_batches
(models/intermediate/_intermediate__unit_tests.yml), the
parsing of Canal, DataWorks, SharePlex, DataHub Tuple, Debezium, Datastream and DTS Avro
(models/staging/<format>/_<format>__unit_tests.yml; DTS Avro's records are decoded by the
real Python UDF), and the pure macros: sort keys, epoch times, row keys, Canal's binary values
(models/macro_tests/_macro_tests__models.yml).

The state tests give current_state and row_history a few change_log / schema_changes rows
(out-of-order landing, a delete, a partial image, a truncate, a primary-key update); the
staging tests give landed messages and the vocabulary rows they need. Each compares the rows
decided with the expected ones. No landing file is needed: a run over empty landing tables
creates the relations they read.
"""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.dbt

UNIT_TESTS = {
    "stg_canal_events_explodes_rows_classifies_and_keys",
    "stg_dataworks_events_classifies_ops_and_update_halves",
    "stg_shareplex_events_partial_updates_row_ids_and_reasons",
    "stg_datahub_tuple_events_image_flags_decide_the_halves",
    "stg_debezium_events_keys_from_the_record_key_envelopes_and_tombstones",
    "stg_datastream_events_change_types_backfill_and_keys",
    "stg_datastream_events_source_system_from_read_method_prefix",
    "stg_dts_avro_events_decodes_records_classifies_and_keys",
    "int_update_halves_paired_pairs_halves_once_and_holds_a_lone_half",
    "int_rekeyed_changes_keys_missing_key_changes_by_the_key_their_table_was_last_seen_with",
    "int_stream_batches_counts_messages_by_outcome_grouping_only_multi_event_messages",
    "current_state_orders_by_sort_key_applies_deletes_partials_and_truncates",
    "row_history_versions_in_sort_key_order_ended_by_the_next_or_a_truncate",
    "unpaired_update_halves_lists_the_halves_whose_partner_has_not_landed",
    "sort_key_number_orders_numbers_as_numbers",
    "epoch_to_timestamp_reads_each_unit",
    "datastream_timestamp_reads_iso_text_and_epoch_numbers",
    "debezium_logical_values_become_canonical_text",
    "row_key_from_declared_keys_row_ids_or_the_whole_row",
    "canal_binary_values_become_base64_of_their_bytes",
}


def test_the_dbt_unit_tests_pass(make_pipeline):
    pipeline = make_pipeline("unit", {
        "cdc_formats": ["canal", "dataworks", "shareplex", "datahub_tuple", "debezium", "datastream", "dts_avro"],
        "cdc_unit_tests": True,
    })
    pipeline.write_json = True  # the test reads target/run_results.json
    listed = pipeline.dbt("ls", "--resource-type", "unit_test", "--output", "name").result
    assert set(listed) == UNIT_TESTS, listed
    pipeline.dbt("run", "--select", "+current_state", "+row_history")
    pipeline.dbt("test", "--select", "test_type:unit")
    results = json.loads((pipeline.work_dir / "target" / "run_results.json").read_text(encoding="utf-8"))
    passed = {r["unique_id"].rsplit(".", 1)[-1] for r in results["results"] if r["status"] == "pass"}
    assert passed == UNIT_TESTS, results["results"]


def test_unit_tests_stay_out_of_every_build(make_pipeline):
    """Off by default: a `dbt build` of every batch does not run them."""
    pipeline = make_pipeline("unit_off", {"cdc_formats": ["canal"]})
    assert not pipeline.dbt("ls", "--resource-type", "unit_test", "--output", "name").result
