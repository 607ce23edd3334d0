"""Incremental runs that once went wrong (each test failed before its fix):

- a batch holding only a truncate of one table must not remove other tables' rows that share
  its key buckets (the touched buckets are read back whole);
- a late partial image (SharePlex `upd` whose `key` holds only the key columns) below an
  already merged row must give the same row as a full rebuild and as the source;
- the incremental high-water mark is per source format: a format's batch landed before
  another format's latest batch but seen only after it still reaches the change log;
- staging reads only batches after its last complete one, and a batch it holds only part of
  is read again without duplicating what it holds;
- a small batch rewrites only the state models' delta layer, until compaction;
- the state models run side by side (dbt threads) share one input table of new changes, and
  no input table outlives a run;
- an appended table compacted after many small batches keeps every row once, and its marks.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from pathlib import Path

import pytest

from python_udfs.pipeline.landing import record_committed_batch

from .dataworks_messages import message as dataworks_message
from .test_shareplex_pipeline import sp

pytestmark = pytest.mark.dbt

STATE = "select table_id, row_key, is_deleted, deleted_by, to_json(row_image) as row_image, sort_key from {s}.current_state"
HISTORY = """
    select table_id, row_key, change_id, is_deleted, to_json(row_image) as row_image, sort_key,
           valid_from, valid_to, ended_by, is_current
    from {s}.row_history
"""
# stream_progress without its query-time freshness
PROGRESS = """
    select source_format, stream_name, messages_landed, row_events, control_events,
           quarantined_events, messages_with_row_changes, control_messages, quarantined_messages,
           tombstones_skipped, last_change_committed_at, last_change_landed_at, last_landed_at,
           last_source_position
    from {s}.stream_progress
    order by source_format, stream_name
"""


def as_set(rows):
    return {tuple(sorted(r.items())) for r in rows}


def insert_landing_rows(table, messages, origin, landed_at):
    """Write `messages` into a landing table directly (as a landing does, line n at offset n),
    without recording a commit; returns the Spark session."""
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    spark.createDataFrame(
        [(m, table.rsplit(".raw_", 1)[-1], origin, None, n, None, landed_at, origin, None)
         for n, m in enumerate(messages, start=1)],
        "raw_value string, stream_name string, origin string, origin_partition int, origin_offset bigint, "
        "origin_timestamp timestamp, landed_at timestamp, landing_batch_id string, message_key string",
    ).write.insertInto(table)
    return spark


def test_truncate_only_batch_keeps_other_tables_rows(make_pipeline):
    # two buckets: the truncated table reaches every bucket the other table uses
    pipeline = make_pipeline("trunc_only", {"cdc_formats": ["shareplex"], "cdc_key_buckets": 2,
                                            "cdc_primary_keys": {"HR.A": ["ID"], "HR.B": ["ID"], "HR.C": ["ID"]}})
    rows = range(1, 9)
    pipeline.land("shareplex", [
        sp("ins", f"HR.{table}", {"ID": str(n), "V": f"{table}{n}"}, scn=str(100 + 10 * n + offset))
        for offset, table in enumerate("AB") for n in rows
    ])
    pipeline.build()
    # a later batch elsewhere, so the truncate's run reads nothing of batch 1 (which would touch
    # every bucket of HR.B) even where a run reads its last batch again (killed-run recovery)
    pipeline.land("shareplex", [sp("ins", "HR.C", {"ID": "1"}, scn="900")])
    pipeline.build()
    pipeline.land("shareplex", [sp("trunc", "HR.A", scn="1000")])
    pipeline.build()

    state = {(r["table_id"], r["row_key"]): r for r in pipeline.sql(STATE)}
    assert {k: (r["is_deleted"], r["deleted_by"]) for k, r in state.items() if k[0] == "HR.A"} == {
        ("HR.A", str(n)): (True, "truncate") for n in rows}
    assert {k: (r["is_deleted"], json.loads(r["row_image"])) for k, r in state.items() if k[0] == "HR.B"} == {
        ("HR.B", str(n)): (False, {"ID": str(n), "V": f"B{n}"}) for n in rows}
    history = pipeline.sql("select table_id, row_key, is_current, ended_by from {s}.row_history")
    assert sorted((r["row_key"], r["is_current"], r["ended_by"]) for r in history if r["table_id"] == "HR.B") == [
        (str(n), True, None) for n in rows]
    assert sorted((r["row_key"], r["is_current"], r["ended_by"]) for r in history if r["table_id"] == "HR.A") == [
        (str(n), False, "truncate") for n in rows]

    progress = pipeline.sql(PROGRESS)
    assert [(r["messages_landed"], r["row_events"], r["control_events"]) for r in progress] == [(18, 17, 1)], progress
    incremental = as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY)), as_set(progress)
    pipeline.rebuild()
    assert (as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY)), as_set(pipeline.sql(PROGRESS))) == incremental


def rebuild_key_tables_written(pipeline) -> int:
    """How many input tables of keys to rebuild (state_rebuild_keys) the pipeline's runs wrote
    (as a Parquet table, or, in the embedded session, as a local checkpoint)."""
    text = (pipeline.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8")
    return len(re.findall(r"create table `[^`]+`\.`cdc_rebuild_keys__|input `cdc_rebuild_keys__[^`]*` computed", text))


def test_late_partial_image_equals_full_rebuild(make_pipeline):
    pipeline = make_pipeline("late_partial", {"cdc_formats": ["shareplex"], "cdc_primary_keys": {"HR.P": ["ID"]}})
    key = {"ID": "1"}
    pipeline.land("shareplex", [
        sp("ins", "HR.P", {"ID": "1", "A": "a1", "B": "b1"}, scn="100"),
        sp("upd", "HR.P", {"B": "b3"}, key, scn="300"),
        # a second row: merged, then a late partial below the merge base (no effect)
        sp("ins", "HR.P", {"ID": "2", "A": "a1", "B": "b1"}, scn="100"),
        sp("ins", "HR.P", {"ID": "2", "A": "a4", "B": "b4"}, scn="400"),
        sp("upd", "HR.P", {"B": "b5"}, {"ID": "2"}, scn="500"),
    ])
    pipeline.build()
    pipeline.land("shareplex", [
        sp("upd", "HR.P", {"A": "a2"}, key, scn="200"),
        sp("upd", "HR.P", {"A": "x3"}, {"ID": "2"}, scn="300"),
    ])
    pipeline.build()
    # the keys to rebuild (key 1) went through an input table, dropped with the others
    assert not pipeline.sql("show tables in {s}_staging like 'cdc_*'")
    assert rebuild_key_tables_written(pipeline) == 1
    # a batch below no merged row: its probe finds no key, and no table is written
    pipeline.land("shareplex", [sp("ins", "HR.P", {"ID": "3", "A": "a1", "B": "b1"}, scn="100")])
    pipeline.build()
    assert rebuild_key_tables_written(pipeline) == 1
    truth = {"1": {"ID": "1", "A": "a2", "B": "b3"}, "2": {"ID": "2", "A": "a4", "B": "b5"},
             "3": {"ID": "3", "A": "a1", "B": "b1"}}

    state = {r["row_key"]: (r["is_deleted"], json.loads(r["row_image"])) for r in pipeline.sql(STATE)}
    assert state == {k: (False, v) for k, v in truth.items()}
    current = {r["row_key"]: json.loads(r["row_image"]) for r in pipeline.sql(HISTORY) if r["is_current"]}
    assert current == truth
    incremental = as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY))
    # a run with nothing new changes nothing
    pipeline.build()
    assert (as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY))) == incremental
    pipeline.rebuild()
    assert (as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY))) == incremental


def test_high_water_mark_is_per_format(make_pipeline):
    pipeline = make_pipeline("hwm_format", {"cdc_formats": ["dataworks", "shareplex"]})
    columns = [("id", "LONG"), ("v", "STRING")]

    def dataworks_insert(n):
        return dataworks_message("INSERT", "w", columns=columns, primary_key=["id"],
                                 after={"id": n, "v": f"w{n}"}, sequence_id=str(1000 + n))

    pipeline.land("dataworks", [dataworks_insert(1)])
    pipeline.build()
    pipeline.land("shareplex", [sp("ins", "HR.S", {"ID": "1"}, scn="100", rowid="AAASAAAAEAAAAFUAAA")])
    pipeline.build()

    # a DataWorks batch that landed (landed_at) before the SharePlex batch but is seen only now
    marks = {r["f"]: r["t"] for r in pipeline.sql(
        "select 'dataworks' as f, max(landed_at) as t from {s}_landing.raw_dataworks union all "
        "select 'shareplex', max(landed_at) from {s}_landing.raw_shareplex")}
    assert marks["shareplex"] - marks["dataworks"] > dt.timedelta(microseconds=2)
    between = marks["dataworks"] + (marks["shareplex"] - marks["dataworks"]) / 2
    table = f"{pipeline.schema}_landing.raw_dataworks"
    spark = insert_landing_rows(table, [dataworks_insert(n) for n in (2, 3)], "late.jsonl", between)
    # its landing commits last, as `land` records it
    record_committed_batch(spark, table, between)
    pipeline.build()

    assert sorted(r["row_key"] for r in pipeline.sql(
        "select row_key from {s}.change_log where table_id = 'db.w'")) == ["1", "2", "3"]
    assert sorted(r["row_key"] for r in pipeline.sql(
        "select row_key from {s}.current_state where table_id = 'db.w' and not is_deleted")) == ["1", "2", "3"]
    assert sorted(r["row_key"] for r in pipeline.sql(
        "select row_key from {s}.row_history where table_id = 'db.w' and is_current")) == ["1", "2", "3"]
    progress = pipeline.sql(PROGRESS)
    assert [(r["messages_landed"], r["row_events"]) for r in progress] == [(3, 3), (1, 1)], progress
    incremental = as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY)), as_set(progress)
    pipeline.rebuild()
    assert (as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY)), as_set(pipeline.sql(PROGRESS))) == incremental


def test_staging_reads_an_incomplete_last_batch_again(make_pipeline):
    """Staging reads only batches after its last complete one; a batch it holds only part of
    (a write cut short by a killed run, which records no read-through mark) is read again, and
    only its missing messages are added."""
    pipeline = make_pipeline("stg_partial", {"cdc_formats": ["dataworks"]})
    columns = [("id", "LONG"), ("v", "STRING")]

    def insert(n):
        return dataworks_message("INSERT", "p", columns=columns, primary_key=["id"],
                                 after={"id": n, "v": f"p{n}"}, sequence_id=str(2000 + n))

    staged = "{s}_staging.stg_dataworks__events"
    pipeline.land("dataworks", [insert(1), insert(2)])
    pipeline.build()
    first_run = table_properties(pipeline, staged.format(s=pipeline.schema))
    pipeline.land("dataworks", [insert(3), insert(4), insert(5)])
    pipeline.build()
    before = as_set(pipeline.sql("select event_id, change_id from " + staged))
    changes = as_set(pipeline.sql("select change_id, row_key from {s}.change_log"))
    assert len(before) == 5 and len(changes) == 5

    # cut the last batch short in staging: drop the event of one of its messages
    lost = pipeline.sql(f"select max(message_id) as m from {staged} where landed_at = (select max(landed_at) from {staged})")[0]["m"]
    pipeline.sql(f"create table {{s}}_staging.kept as select * from {staged} where message_id <> '{lost}'")
    pipeline.sql(f"insert overwrite table {staged} select * from {{s}}_staging.kept")
    assert len(pipeline.sql("select event_id from " + staged)) == 4
    # and, as a killed run does, record nothing: the version, inputs and read-through marks of
    # the last complete run stay
    recorded = ", ".join(f"'{key}' = '{first_run[key]}'" for key in ("cdc.version", "cdc.inputs", "cdc.read_through"))
    pipeline.sql(f"alter table {staged} set tblproperties ({recorded})")

    pipeline.build()  # nothing new landed: the incomplete batch is read again
    assert as_set(pipeline.sql("select event_id, change_id from " + staged)) == before
    assert as_set(pipeline.sql("select change_id, row_key from {s}.change_log")) == changes
    pipeline.build()  # complete again: nothing is read, nothing changes
    assert as_set(pipeline.sql("select event_id, change_id from " + staged)) == before


def table_properties(pipeline, relation):
    return {r["key"]: r["value"] for r in pipeline.sql(f"show tblproperties {relation}")}


def read_through(pipeline, relation):
    """The `cdc.read_through` table property of `relation`, as {format id: text}."""
    text = table_properties(pipeline, relation).get("cdc.read_through", "")
    return dict(item.split("=", 1) for item in text.split(";") if item)


def test_staging_reads_only_committed_batches(make_pipeline):
    """A batch whose landing has not recorded its commit (`cdc.committed_through`) is not read:
    a build beside a landing never sees part of a batch. Once recorded, it is read once, and
    every model records how far it has read."""
    pipeline = make_pipeline("committed", {"cdc_formats": ["dataworks"]})
    columns = [("id", "LONG"), ("v", "STRING")]

    def insert(n):
        return dataworks_message("INSERT", "c", columns=columns, primary_key=["id"],
                                 after={"id": n, "v": f"c{n}"}, sequence_id=str(3000 + n))

    pipeline.land("dataworks", [insert(1)])
    pipeline.build()
    table = f"{pipeline.schema}_landing.raw_dataworks"
    committed = table_properties(pipeline, table)["cdc.committed_through"]
    for relation in ("{s}_staging.stg_dataworks__events", "{s}_staging.int_redelivered_changes",
                     "{s}_staging.int_current_state_layers", "{s}_staging.int_row_history_layers"):
        assert read_through(pipeline, relation.format(s=pipeline.schema)) == {"dataworks": committed}

    # a batch still being written: its rows are there, its commit not recorded yet
    later = dt.datetime.fromisoformat(committed) + dt.timedelta(seconds=1)
    spark = insert_landing_rows(table, [insert(n) for n in (2, 3)], "writing.jsonl", later)
    pipeline.build()
    assert [r["row_key"] for r in pipeline.sql("select row_key from {s}.current_state")] == ["1"]
    assert len(pipeline.sql("select event_id from {s}_staging.stg_dataworks__events")) == 1

    record_committed_batch(spark, table, later)
    pipeline.build()
    assert sorted(r["row_key"] for r in pipeline.sql("select row_key from {s}.change_log")) == ["1", "2", "3"]
    assert sorted(r["row_key"] for r in pipeline.sql("select row_key from {s}.current_state")) == ["1", "2", "3"]
    assert read_through(pipeline, f"{pipeline.schema}_staging.int_current_state_layers") == {
        "dataworks": later.isoformat(sep=" ", timespec="microseconds")}
    progress = pipeline.sql(PROGRESS)
    assert [(r["messages_landed"], r["row_events"]) for r in progress] == [(3, 3)], progress
    incremental = as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY)), as_set(progress)
    pipeline.rebuild()
    assert (as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY)), as_set(pipeline.sql(PROGRESS))) == incremental


def test_marks_left_behind_by_a_killed_run_read_again(make_pipeline):
    """A run killed after its statement but before recording its marks leaves the earlier
    marks: the next run reads those batches again, and nothing is doubled or lost."""
    pipeline = make_pipeline("stale_marks", {"cdc_formats": ["dataworks"]})
    columns = [("id", "LONG"), ("v", "STRING")]

    def change(operation, sequence, before=None, after=None):
        return dataworks_message(operation, "k", columns=columns, primary_key=["id"],
                                 before=before, after=after, sequence_id=str(sequence))

    pipeline.land("dataworks", [change("INSERT", 4000 + n, after={"id": n, "v": f"a{n}"}) for n in (1, 2, 3)])
    pipeline.build()
    models = ["{s}_staging.int_redelivered_changes", "{s}_staging.int_current_state_layers",
              "{s}_staging.int_row_history_layers", "{s}.schema_changes",
              "{s}.quarantine", "{s}_staging.int_update_halves_paired",
              "{s}_staging.int_stream_batches"]
    first = {m: read_through(pipeline, m.format(s=pipeline.schema)) for m in models}
    pipeline.land("dataworks", [
        change("UPDATE_BEFOR", 4100, before={"id": 1, "v": "a1"}),
        change("UPDATE_AFTER", 4100, after={"id": 1, "v": "b1"}),
        change("DELETE", 4101, before={"id": 2, "v": "a2"}),
    ])
    pipeline.build()
    # as if every model after staging had been killed before recording this run's marks
    for model in models:
        marks = ";".join(f"{f}={t}" for f, t in first[model].items())
        pipeline.sql(f"alter table {model} set tblproperties ('cdc.read_through' = '{marks}')")
    pipeline.land("dataworks", [change("INSERT", 4200, after={"id": 4, "v": "a4"})])
    pipeline.build()

    changes = pipeline.sql("select change_id from {s}.change_log")
    assert len(changes) == len({r["change_id"] for r in changes}) == 6
    state = {r["row_key"]: (r["is_deleted"], json.loads(r["row_image"])) for r in pipeline.sql(STATE)}
    assert {k: v for k, (deleted, v) in state.items() if not deleted} == {
        "1": {"id": "1", "v": "b1"}, "3": {"id": "3", "v": "a3"}, "4": {"id": "4", "v": "a4"}}
    progress = pipeline.sql(PROGRESS)
    assert [(r["messages_landed"], r["row_events"]) for r in progress] == [(7, 7)], progress
    incremental = as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY)), as_set(progress)
    pipeline.rebuild()
    assert (as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY)), as_set(pipeline.sql(PROGRESS))) == incremental


def test_repeated_deliveries_are_listed_once_and_the_copies_recorded(make_pipeline):
    """change_log is a view over staging: a change delivered again in the same batch or in a
    later one is listed once (the first staged copy), its other copies are recorded in
    int_redelivered_changes with where the kept copy was read, and a full rebuild agrees."""
    pipeline = make_pipeline("repeats", {"cdc_formats": ["dataworks"]})
    columns = [("id", "LONG"), ("v", "STRING")]

    def insert(n):
        return dataworks_message("INSERT", "r", columns=columns, primary_key=["id"],
                                 after={"id": n, "v": f"r{n}"}, sequence_id=str(5000 + n))

    pipeline.land("dataworks", [insert(1), insert(2), insert(1)])  # a copy in the same batch
    pipeline.build()
    pipeline.land("dataworks", [insert(2), insert(3)])  # a copy of an earlier batch's change
    pipeline.build()

    logged = pipeline.sql("select row_key, origin_offset from {s}.change_log order by row_key")
    assert [(r["row_key"], r["origin_offset"]) for r in logged] == [("1", 1), ("2", 2), ("3", 2)]
    copies = """select r.kept_copy, s.row_key, s.origin_offset
                from {s}_staging.int_redelivered_changes as r
                join {s}_staging.stg_dataworks__events as s on r.event_id = s.event_id"""
    incremental = as_set(pipeline.sql(copies))
    assert incremental == {
        (("kept_copy", "same_run"), ("origin_offset", 3), ("row_key", "1")),
        (("kept_copy", "earlier_run"), ("origin_offset", 1), ("row_key", "2")),
    }
    state = as_set(pipeline.sql(STATE))
    pipeline.rebuild()
    # rebuilt in one run, both copies are of the same run; the same copies are left out
    assert {(dict(r)["row_key"], dict(r)["origin_offset"]) for r in as_set(pipeline.sql(copies))} == {("1", 3), ("2", 1)}
    assert as_set(pipeline.sql(STATE)) == state
    assert len(pipeline.sql("select change_id from {s}.change_log")) == 3


def test_versions_without_a_commit_time_stay_in_history_and_as_of(make_pipeline):
    """Backfill messages often carry no commit time (DataWorks `eventTime` -1): a first version
    without one is valid from the beginning of history, a later one takes effect with the
    version before it, and `table_as_of` sees exactly one version of a row at any time; also
    when the known version before an unknown one arrives late."""
    from pyspark.sql import SparkSession

    pipeline = make_pipeline("no_commit_time", {"cdc_formats": ["dataworks"]})
    columns = [("id", "LONG"), ("v", "STRING")]
    t1, t2, t3 = 1_700_000_100_000, 1_700_000_200_000, 1_700_000_300_000

    def change(op, n, seq, event_time, before=None, after=None):
        return dataworks_message(op, "b", columns=columns, primary_key=["id"], sequence_id=str(seq),
                                 event_time=event_time, system_time=event_time if event_time > 0 else 1,
                                 before=before, after=after)

    # row 1: backfilled (no time), updated at t2; row 2: inserted at t1, updated (no time),
    # updated at t3, whose t1 insert and t3 update arrive only in the second batch
    pipeline.land("dataworks", [
        change("INSERT", 1, 100, -1, after={"id": 1, "v": "backfill"}),
        change("UPDATE", 2, 300, -1, before={"id": 2, "v": "a"}, after={"id": 2, "v": "b"}),
    ])
    pipeline.build()
    pipeline.land("dataworks", [
        change("UPDATE", 1, 400, t2, before={"id": 1, "v": "backfill"}, after={"id": 1, "v": "new"}),
        change("INSERT", 2, 200, t1, after={"id": 2, "v": "a"}),
        change("UPDATE", 2, 500, t3, before={"id": 2, "v": "b"}, after={"id": 2, "v": "c"}),
    ])
    pipeline.build()

    def at(ms):
        return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).replace(tzinfo=None)

    history = {(r["row_key"], r["v"]): (r["valid_from"], r["valid_to"], r["is_current"]) for r in pipeline.sql(
        "select row_key, row_image['v'] as v, valid_from, valid_to, is_current from {s}.row_history "
        "where table_id = 'db.b'")}
    assert history == {
        ("1", "backfill"): (None, at(t2), False),
        ("1", "new"): (at(t2), None, True),
        ("2", "a"): (at(t1), at(t1), False),  # replaced at once by the update without a time
        ("2", "b"): (at(t1), at(t3), False),
        ("2", "c"): (at(t3), None, True),
    }, history

    def as_of(ms):
        result = pipeline.dbt("compile", "--inline",
                              f"select * from ({{{{ table_as_of('db.b', \"timestamp'{at(ms)}'\") }}}})")
        rows = SparkSession.builder.getOrCreate().sql(result.result.results[0].node.compiled_code).collect()
        return sorted((r["row_key"], r["row_image"]["v"]) for r in rows)

    assert as_of(t1 - 1000) == [("1", "backfill")]
    assert as_of(t1) == [("1", "backfill"), ("2", "b")]
    assert as_of(t2) == [("1", "new"), ("2", "b")]
    assert as_of(t3 + 1000) == [("1", "new"), ("2", "c")]

    incremental = as_set(pipeline.sql(HISTORY))
    pipeline.rebuild()
    assert as_set(pipeline.sql(HISTORY)) == incremental


def test_a_small_batch_rewrites_the_delta_layer_only_until_compaction(make_pipeline):
    """current_state and row_history are stored in two layers: a batch touching few keys
    rewrites only the delta layer (those keys, whole), the base layer's files stay as they are;
    once the delta layer outgrows cdc_state_delta_ratio of the base, the next run compacts
    everything into the base. The views read the same as a full rebuild throughout."""
    pipeline = make_pipeline("layers", {"cdc_formats": ["dataworks"], "cdc_state_delta_ratio": 0.2})
    columns = [("id", "LONG"), ("v", "STRING")]
    layers = {"state": "{s}_staging.int_current_state_layers", "history": "{s}_staging.int_row_history_layers"}

    def change(operation, n, sequence, before=None, after=None):
        return dataworks_message(operation, "l", columns=columns, primary_key=["id"], sequence_id=str(sequence),
                                 before=before, after=after)

    def rows_per_layer():
        return {name: {r["state_layer"]: r["n"] for r in pipeline.sql(
            f"select state_layer, count(table_id) as n from {relation} group by state_layer")}
            for name, relation in layers.items()}

    def base_files():
        files = {}
        for name, relation in layers.items():
            location = pipeline.sql(f"describe formatted {relation}")
            path = next(r["data_type"] for r in location if r["col_name"] == "Location")
            base = Path(path.removeprefix("file:")) / "state_layer=base"
            files[name] = {p.name: p.stat().st_mtime_ns for p in base.glob("*.parquet")}
        return files

    def recorded_base_rows():
        """Each layers table's `cdc.base_rows` (record_base_layer_marks), which later runs read
        instead of counting the base layer."""
        return {name: {r["key"]: r["value"] for r in pipeline.sql(f"show tblproperties {relation}")}.get("cdc.base_rows")
                for name, relation in layers.items()}

    def layer_counts_asked():
        """The layer counts (state_write_layer) the last run sent, as dbt logged them."""
        log = (pipeline.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8", errors="replace")
        last_run = log.rsplit("Running with dbt=", 1)[-1]
        return [line.strip() for line in last_run.splitlines()
                if line.strip().startswith("select state_layer, count(*) from")]

    def agrees_with_full_rebuild():
        state, history = as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY))
        pipeline.rebuild()
        assert as_set(pipeline.sql(STATE)) == state
        assert as_set(pipeline.sql(HISTORY)) == history

    pipeline.land("dataworks", [change("INSERT", n, 100 + n, after={"id": n, "v": "a"}) for n in range(1, 9)])
    pipeline.build()
    assert rows_per_layer() == {"state": {"base": 8, "delta": 0}, "history": {"base": 8, "delta": 0}}
    assert recorded_base_rows() == {"state": None, "history": None}  # counted by the next run
    before = base_files()

    # one key updated, one deleted: 2 of 8 keys, both models write them to the delta layer only
    pipeline.land("dataworks", [
        change("UPDATE", 1, 200, before={"id": 1, "v": "a"}, after={"id": 1, "v": "b"}),
        change("DELETE", 2, 201, before={"id": 2, "v": "a"}),
    ])
    pipeline.build()
    assert rows_per_layer() == {"state": {"base": 8, "delta": 2}, "history": {"base": 8, "delta": 4}}
    assert base_files() == before
    # the first run after the base layer was written counts both layers, and records the base's count
    asked = layer_counts_asked()
    assert len(asked) == 2 and all(q.endswith(" group by state_layer") and "where" not in q for q in asked), asked
    assert recorded_base_rows() == {"state": "8", "history": "8"}
    assert sorted((r["row_key"], r["v"], r["is_deleted"]) for r in pipeline.sql(
        "select row_key, row_image['v'] as v, is_deleted from {s}.current_state where row_key in ('1', '2')")) == [
        ("1", "b", False), ("2", "a", True)]
    assert len(pipeline.sql("select * from {s}.row_history")) == 10

    # the delta layers hold 2 > 0.2 * 8 and 4 > 0.2 * 8 rows: the next run compacts both layers into the base
    pipeline.land("dataworks", [change("UPDATE", 3, 300, before={"id": 3, "v": "a"}, after={"id": 3, "v": "c"})])
    pipeline.build()
    assert rows_per_layer() == {"state": {"base": 8, "delta": 0}, "history": {"base": 11, "delta": 0}}
    assert base_files() != before
    # this run read the recorded counts (the delta layers counted only); the compaction removed them
    asked = layer_counts_asked()
    assert len(asked) == 2 and all(q.endswith("where state_layer = 'delta' group by state_layer") for q in asked), asked
    assert recorded_base_rows() == {"state": None, "history": None}
    agrees_with_full_rebuild()

    # the next batch counts both layers again and records the new counts; the one after
    # decides on them (2 > 0.2 * 8 and 4 > 0.2 * 11: a compaction) without counting the base
    pipeline.land("dataworks", [
        change("UPDATE", 4, 400, before={"id": 4, "v": "a"}, after={"id": 4, "v": "d"}),
        change("UPDATE", 5, 401, before={"id": 5, "v": "a"}, after={"id": 5, "v": "e"}),
    ])
    pipeline.build()
    assert rows_per_layer() == {"state": {"base": 8, "delta": 2}, "history": {"base": 11, "delta": 4}}
    assert recorded_base_rows() == {"state": "8", "history": "11"}
    pipeline.land("dataworks", [change("UPDATE", 6, 500, before={"id": 6, "v": "a"}, after={"id": 6, "v": "f"})])
    pipeline.build()
    asked = layer_counts_asked()
    assert len(asked) == 2 and all(q.endswith("where state_layer = 'delta' group by state_layer") for q in asked), asked
    assert rows_per_layer() == {"state": {"base": 8, "delta": 0}, "history": {"base": 14, "delta": 0}}
    assert recorded_base_rows() == {"state": None, "history": None}
    agrees_with_full_rebuild()


def test_state_models_side_by_side_share_one_input_table_and_drop_it(make_pipeline):
    """An incremental run writes the state models' new changes once, to an input table in the
    staging schema (state_new_changes). With 4 dbt threads the two state models run at the same
    time: they must neither both create it (TEMP_TABLE_OR_VIEW_ALREADY_EXISTS, seen with the
    cached view it replaced) nor drop it under each other. No input table outlives the run, and
    one a killed run left behind is dropped by the next run. In the embedded session the input
    is a local checkpoint, not a table."""
    pipeline = make_pipeline("inputs", {"cdc_formats": ["dataworks"]})
    columns = [("id", "LONG"), ("v", "STRING")]

    def change(operation, n, sequence, before=None, after=None):
        return dataworks_message(operation, "t", columns=columns, primary_key=["id"], sequence_id=str(sequence),
                                 before=before, after=after)

    def input_tables():
        return sorted(r["tableName"] for r in pipeline.sql("show tables in {s}_staging like 'cdc_*'"))

    pipeline.land("dataworks", [change("INSERT", n, 100 + n, after={"id": n, "v": "a"}) for n in range(1, 5)])
    pipeline.build()
    pipeline.sql("create table {s}_staging.cdc_new_changes__left_by_a_killed_run using parquet as select 1 as x")
    for batch in range(1, 4):
        pipeline.land("dataworks", [
            change("UPDATE", batch, 200 + batch, before={"id": batch, "v": "a"}, after={"id": batch, "v": f"b{batch}"}),
        ])
        pipeline.build("--threads", "4")
        assert input_tables() == []
    # in the embedded (local) session the shared input is a local checkpoint behind a temporary
    # view, computed once per run: no Parquet table, no metastore entry
    log = (pipeline.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8")
    assert len(re.findall(r"input `cdc_new_changes__\w+` computed as a local checkpoint", log)) == 3
    assert not re.search(r"create table `[^`]+`\.`cdc_new_changes__", log)
    # and its blocks are freed when the run is done with it (through the SparkContext: no
    # warning per checkpointed RDD)
    released = re.findall(r"checkpoint rdd (\d+) unpersisted", log)
    assert len(released) == 3
    from pyspark.sql import SparkSession

    def still_stored() -> set[int]:  # the release is asynchronous: a moment to let it land
        context = SparkSession.builder.getOrCreate().sparkContext._jsc.sc()
        return {info.id() for info in context.getRDDStorageInfo()} & {int(rdd) for rdd in released}

    for _ in range(50):
        if not still_stored():
            break
        time.sleep(0.1)
    assert not still_stored()
    state = {r["row_key"]: json.loads(r["row_image"])["v"] for r in pipeline.sql(STATE)}
    assert state == {"1": "b1", "2": "b2", "3": "b3", "4": "a"}
    incremental = as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY))
    pipeline.rebuild()
    assert (as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY))) == incremental


def test_a_small_checkpoint_is_read_in_one_partition(make_pipeline, monkeypatch):
    """The state models' shared input, checkpointed in a partition per group of staging files,
    is copied into one partition per INPUT_PARTITION_BYTES (the adapter's _fewer_partitions):
    the same rows, fewer tasks in every stage that reads it, and the first checkpoint freed.
    One that needs its partitions, or has one, is kept as it is."""
    from dbt.adapters.spark_cdc import impl
    from pyspark.sql import SparkSession

    # the session as the project starts it (its warehouse and metastore), not a bare one
    make_pipeline("fewer").dbt("run-operation", "create_landing_tables", "--quiet")
    spark = SparkSession.builder.getOrCreate()

    def checkpoint(partitions):
        return spark.range(0, 3000, 1, partitions).selectExpr("id", "cast(id * 7 as string) as v").localCheckpoint(eager=True)

    def rdd_of(rows):
        return rows._jdf.queryExecution().analyzed().rdd()

    def stored() -> set[int]:
        return {info.id() for info in spark.sparkContext._jsc.sc().getRDDStorageInfo()}

    rows = checkpoint(12)
    first = rdd_of(rows).id()
    fewer = impl._fewer_partitions(spark, rows)
    assert rdd_of(fewer).getNumPartitions() == 1
    assert sorted(tuple(r) for r in fewer.collect()) == [(n, str(n * 7)) for n in range(3000)]
    for _ in range(50):  # the release is asynchronous
        if first not in stored():
            break
        time.sleep(0.1)
    assert first not in stored() and rdd_of(fewer).id() in stored()

    one = checkpoint(1)
    assert impl._fewer_partitions(spark, one) is one
    # partitions of at most one byte each: every partition is needed
    monkeypatch.setattr(impl, "INPUT_PARTITION_BYTES", 1)
    many = checkpoint(4)
    assert impl._fewer_partitions(spark, many) is many
    assert rdd_of(many).getNumPartitions() == 4


def test_many_small_batches_are_compacted_without_losing_or_repeating_a_row(make_pipeline):
    """An appended table (a landing table, a staging model) that small batches left in many
    files is rewritten as one and switched to it: every row once, the high-water marks kept
    (the next batch adds only itself), the folder it replaced deleted by the next compaction,
    and a folder a killed compaction left behind deleted too."""
    pipeline = make_pipeline("compaction", {"cdc_formats": ["shareplex"], "cdc_compact_min_files": 3,
                                            "cdc_primary_keys": {"HR.K": ["ID"]}})
    staged = "{s}_staging.stg_shareplex__events"
    landed = "{s}_landing.raw_shareplex"

    def location(relation):
        rows = pipeline.sql(f"describe formatted {relation}")
        return Path(next(r["data_type"] for r in rows if r["col_name"] == "Location").removeprefix("file:"))

    truth, messages, scn = {}, 0, 100
    pipeline.land("shareplex", [sp("ins", "HR.K", {"ID": str(n), "V": "a"}, scn=str(scn + n)) for n in range(1, 7)])
    truth.update({str(n): {"ID": str(n), "V": "a"} for n in range(1, 7)})
    messages += 6
    pipeline.build()
    # a folder a compaction killed while writing would leave (it holds a copy of real rows)
    first = location(staged)
    left_behind = first.with_name(first.name + "__compacted_" + "0" * 32)
    left_behind.mkdir()
    for parquet in first.glob("*.parquet"):
        (left_behind / parquet.name).write_bytes(parquet.read_bytes())

    for batch in range(2, 7):
        scn += 100
        pipeline.land("shareplex", [
            sp("upd", "HR.K", {"V": f"b{batch}"}, {"ID": "1"}, scn=str(scn + 1)),
            sp("ins", "HR.K", {"ID": f"n{batch}", "V": "c"}, scn=str(scn + 2)),
            sp("del", "HR.K", {"ID": str(batch), "V": "a"}, scn=str(scn + 3)),
        ])
        truth["1"] = {"ID": "1", "V": f"b{batch}"}
        truth[f"n{batch}"] = {"ID": f"n{batch}", "V": "c"}
        truth.pop(str(batch))
        messages += 3
        # staging alone between batches (it is what piles up files); the build then reads them all
        pipeline.dbt("run", "--select", "stg_shareplex__events")
    pipeline.build()

    for relation in (staged, landed):
        now = location(relation)
        assert re.fullmatch(r".+__compacted_[0-9a-f]{32}", now.name), f"{relation} was not compacted: {now}"
        siblings = [p for p in now.parent.iterdir() if p.name.startswith(now.name.split("__compacted_")[0])]
        # the folder in use and at most the one it replaced (kept for readers that began before)
        assert len(siblings) <= 2, siblings
        assert len(list(now.glob("*.parquet"))) < 6
    assert not left_behind.exists()
    # every message landed and staged once
    assert pipeline.sql(f"select count(*) as n, count(distinct origin, origin_offset) as d from {landed}") == [
        {"n": messages, "d": messages}]
    assert pipeline.sql(f"select count(*) as n, count(distinct event_id) as d from {staged}") == [
        {"n": messages, "d": messages}]
    state = {r["row_key"]: (r["is_deleted"], json.loads(r["row_image"])) for r in pipeline.sql(STATE)}
    assert {k: v for k, (deleted, v) in state.items() if not deleted} == truth
    incremental = as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY))
    pipeline.rebuild()
    assert (as_set(pipeline.sql(STATE)), as_set(pipeline.sql(HISTORY))) == incremental
