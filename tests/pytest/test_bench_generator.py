"""The benchmark's stream generator: deterministic by seed, and right.

A tiny stream of every format is landed (its two batches, as the benchmark lands them) and
built; the live rows of ``current_state`` must equal the final state the generator
says its messages imply, so the benchmark measures a correct stream, not just a fast one.
No timing is asserted here.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bench.generate import FORMAT_WRITERS, generate

from .conftest import PROJECT_DIR

FORMATS = sorted(FORMAT_WRITERS)


def tree_digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*.jsonl"))
    }


def test_same_seed_same_files_other_seed_other_files(tmp_path):
    generate(FORMATS, 3_000, 7, tmp_path / "a", increment=100)
    generate(FORMATS, 3_000, 7, tmp_path / "b", increment=100)
    generate(FORMATS, 3_000, 8, tmp_path / "c", increment=100)
    first, again, other = (tree_digest(tmp_path / n) for n in "abc")
    assert first and first == again
    assert first != other


def test_stream_is_mixed_and_sized(tmp_path):
    results = generate(FORMATS, 10_000, 3, tmp_path, increment=500, ddl_every=301)
    for format_id, result in results.items():
        # sized by message count (a statement's messages are not split across batches)
        assert abs(result.messages[0] - 2_000) <= 3 and abs(result.messages[1] - 100) <= 3, format_id
        lines = [
            line
            for path in sorted((tmp_path / "batch-0" / format_id).rglob("*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines()
        ]
        assert len(lines) == result.messages[0]
        assert len(result.table_ids) == 4
    canal = "\n".join(p.read_text() for p in (tmp_path / "batch-0" / "canal").rglob("*.jsonl"))
    for marker in ('"type":"INSERT"', '"type":"UPDATE"', '"type":"DELETE"', '"type":"ALTER"', '"type":"MHEARTBEAT"'):
        assert marker in canal


@pytest.fixture(scope="module")
def generated_build(make_pipeline, tmp_path_factory):
    out = tmp_path_factory.mktemp("bench_stream")
    # DDL and heartbeats often enough that a tiny stream has some
    results = generate(
        FORMATS, 6_000, 11, out, increment=600, keep_state=True, heartbeat_every=97, ddl_every=301
    )
    keys: dict[str, list[str]] = {}
    for result in results.values():
        keys.update(result.primary_keys)
    pipeline = make_pipeline(
        "benchgen",
        {"cdc_formats": FORMATS, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False},
    )
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.landing import land_files

    pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
    # both batches land (two landing batches), then one build: one dbt run keeps the test short
    for batch in ("batch-0", "batch-1"):
        for format_id in FORMATS:
            land_files(
                SparkSession.builder.getOrCreate(),
                format_id,
                [out / batch / format_id],
                project_dir=PROJECT_DIR,
                landing_schema=f"{pipeline.schema}_landing",
                scratch_dir=pipeline.work_dir / "scratch",
                progress=False,
            )
    pipeline.dbt("run")
    return pipeline, results


def test_generator_has_ddl_and_heartbeats(generated_build):
    pipeline, _ = generated_build
    ddl = {r["source_format"] for r in pipeline.sql("select distinct source_format from {s}.schema_changes")}
    assert {"canal", "dataworks", "debezium"} <= ddl
    beats = pipeline.sql(
        "select source_format from {s}.stream_progress where last_heartbeat_at is not null"
    )
    assert {"canal", "dataworks", "debezium"} <= {r["source_format"] for r in beats}


def test_nothing_quarantined_or_held(generated_build):
    pipeline, _ = generated_build
    assert pipeline.sql("select source_format, reason_code from {s}.quarantine") == []
    assert pipeline.sql("select count(*) as n from {s}.unpaired_update_halves") == [{"n": 0}]


@pytest.mark.parametrize("format_id", FORMATS)
def test_current_state_equals_generated_final_state(generated_build, format_id):
    pipeline, results = generated_build
    result = results[format_id]
    rows = pipeline.sql(
        "select table_id, primary_key_columns, row_image from {s}.current_state "
        f"where not is_deleted and source_format = '{format_id}'"
    )
    actual: dict[str, dict[tuple, dict]] = {t: {} for t in result.table_ids}
    for row in rows:
        key = tuple(row["row_image"][c] for c in row["primary_key_columns"])
        actual[row["table_id"]][key] = row["row_image"]
    for table_id in result.table_ids:
        expected = result.final_state[table_id]
        assert len(expected) > 10, table_id
        assert len(actual[table_id]) == len(expected), table_id
        assert actual[table_id] == expected, table_id
    # the stream had deletes: some keys were removed for good
    tombstones = pipeline.sql(
        f"select count(*) as n from {{s}}.current_state where is_deleted and source_format = '{format_id}'"
    )
    assert tombstones[0]["n"] > 0
