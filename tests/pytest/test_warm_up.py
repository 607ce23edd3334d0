"""A new watch warms its session up on the bundled samples (python_udfs/pipeline/warm_up.py):
in scratch schemas of its own, which it drops, never touching the user's tables; once, when
the watch is idle after its first cycle; stopped as soon as files are due."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from python_udfs.pipeline.cli import run_dbt
from python_udfs.pipeline.warm_up import other_arguments, sample_batches, warm_up
from python_udfs.pipeline.watch import StopFlag, watch

from .conftest import PROJECT_DIR

SAMPLE = (PROJECT_DIR / "samples" / "canal" / "store_products.jsonl").read_text(encoding="utf-8").splitlines()


def test_sample_batches_split_json_lines_in_halves_and_keep_binary_files_whole(tmp_path):
    batches = sample_batches(PROJECT_DIR, ["canal", "dts_avro", "no_such_format"], tmp_path)
    assert len(batches) == 2
    canal = [line for batch in batches for path in batch["canal"] for line in path.read_text().splitlines()]
    assert canal == SAMPLE  # every line once, the first half first
    assert 0 < len(batches[0]["canal"][0].read_text().splitlines()) < len(SAMPLE)
    sources = sorted(p.name for p in (PROJECT_DIR / "samples" / "dts_avro").iterdir())
    assert sorted(p.name for p in batches[0]["dts_avro"]) == sources and "dts_avro" not in batches[1]
    for path in batches[0]["dts_avro"]:
        assert path.read_bytes() == (PROJECT_DIR / "samples" / "dts_avro" / path.name).read_bytes()


def test_sample_batches_split_json_lines_into_consecutive_parts_one_batch_each(tmp_path):
    """A warm-up of N builds: each JSON-lines file in N consecutive runs of lines (fewer when
    it has fewer lines), the k-th run in the k-th batch; a binary file whole in the first."""
    dataworks = sorted(p.name for p in (PROJECT_DIR / "samples" / "dataworks").iterdir() if p.suffix == ".jsonl")
    batches = sample_batches(PROJECT_DIR, ["canal", "dataworks", "dts_avro"], tmp_path, parts=5)
    assert len(batches) == 5
    canal = [line for batch in batches for path in batch["canal"] for line in path.read_text().splitlines()]
    assert canal == SAMPLE  # every line once, in order
    assert all(0 < len(batch["canal"][0].read_text().splitlines()) < len(SAMPLE) for batch in batches)
    for name in dataworks:
        source = (PROJECT_DIR / "samples" / "dataworks" / name).read_text(encoding="utf-8").splitlines()
        parts = [p for batch in batches for p in batch.get("dataworks", []) if p.name == name]
        assert [line for p in parts for line in p.read_text().splitlines()] == source
    assert "dts_avro" in batches[0] and not any("dts_avro" in batch for batch in batches[1:])
    # more parts than a file has lines: one line per batch, no empty batch
    many = sample_batches(PROJECT_DIR, ["canal"], tmp_path / "many", parts=len(SAMPLE) + 3)
    assert [len(batch["canal"][0].read_text().splitlines()) for batch in many] == [1] * len(SAMPLE)
    assert len(sample_batches(PROJECT_DIR, ["canal"], tmp_path / "one", parts=1)) == 1


def test_a_warm_up_of_no_builds_is_refused_before_anything_starts(monkeypatch, tmp_path):
    from python_udfs.pipeline.cli import main

    monkeypatch.setenv("CDC_THREADS", "2")  # the watch sets it when unset
    with pytest.raises(SystemExit, match="--warm-up-builds must be at least 1, not 0"):
        main(["--project-dir", str(PROJECT_DIR), "watch", "--warm-up-builds", "0", str(tmp_path)])


def test_the_warm_up_sets_its_own_vars_and_folders():
    given = ["--vars", '{"a": 1}', "--exclude", "typed", "--target-path=/x", "--log-path", "/y", "--vars={}"]
    assert other_arguments(given) == ["--exclude", "typed"]


def test_a_watch_warms_up_once_when_idle_and_stops_when_files_arrive(tmp_path):
    """The watch loop itself (no Spark needed: nothing is due until the warm-up drops a file)."""
    folder = tmp_path / "canal"
    folder.mkdir()
    events: list[str] = []
    stop = StopFlag()

    def build() -> bool:
        events.append("build")
        return True

    def fake_warm_up(interrupted) -> str:
        events.append(f"warm-up (interrupted: {interrupted()})")
        (folder / "new.jsonl").write_text(SAMPLE[0] + "\n", encoding="utf-8")
        events.append(f"a file arrived (interrupted: {interrupted()})")
        stop.requested = True  # end the loop before it lands the file
        return "stopped early: files arrived"

    logged: list[str] = []
    batches = watch(None, {"canal": [folder]}, build, project_dir=PROJECT_DIR, landing_schema="unused",
                    scratch_dir=tmp_path, interval=0, settle=0, stop=stop, log=logged.append,
                    warm_up=fake_warm_up)
    assert batches == 1
    assert events == ["build", "warm-up (interrupted: False)", "a file arrived (interrupted: True)"]
    assert logged[-1] == "warm-up: stopped early: files arrived"


def databases(spark, prefix: str) -> list[str]:
    return sorted(r[0] for r in spark.sql("show databases").collect() if r[0].startswith(prefix))


@pytest.mark.dbt
def test_the_warm_up_builds_the_samples_in_scratch_schemas_and_drops_them(make_pipeline, tmp_path):
    from pyspark.sql import SparkSession

    pipeline = make_pipeline("warm", {"cdc_formats": ["canal"]})
    pipeline.land("canal", SAMPLE[:4])
    pipeline.dbt("run")  # the user's tables (models only: the warm-up runs the data tests)
    spark = SparkSession.builder.getOrCreate()
    mine = sorted(r[0] for r in spark.sql(f"select to_json(struct(*)) from {pipeline.schema}.current_state").collect())
    user_databases = databases(spark, pipeline.schema)
    assert f"{pipeline.schema}_warm_up" not in user_databases

    scratch = f"{pipeline.schema}_warm_up"
    built: list[tuple[str, int]] = []

    def recording_run_dbt(project_dir, args) -> bool:
        ok = run_dbt(project_dir, args)
        if args[0] == "build":  # the scratch change log after each build, in the scratch schema
            built.append((os.environ["CDC_SCHEMA"], spark.table(f"{scratch}.change_log").count()))
        return ok

    os.environ["CDC_SCHEMA"] = pipeline.schema
    outcome = warm_up(spark, PROJECT_DIR, recording_run_dbt, dbt_command="build",
                      dbt_args=["--vars", json.dumps(pipeline.vars), "--target-path", str(tmp_path / "mine")],
                      settings=pipeline.vars, scratch_dir=tmp_path / "scratch", interrupted=lambda: False,
                      builds=2)
    assert outcome.startswith("done in ") and outcome.endswith("(2 builds)"), outcome
    # the first build read the samples' first half, the second (incremental) the rest
    assert [schema for schema, _ in built] == [scratch, scratch]
    assert 0 < built[0][1] < built[1][1], built
    assert os.environ["CDC_SCHEMA"] == pipeline.schema
    assert databases(spark, pipeline.schema) == user_databases  # the scratch schemas are gone
    assert not (tmp_path / "mine").exists() and not (tmp_path / "scratch" / "warm-up").exists()
    after = sorted(r[0] for r in spark.sql(f"select to_json(struct(*)) from {pipeline.schema}.current_state").collect())
    assert after == mine


@pytest.mark.dbt
def test_a_warm_up_stopped_before_its_first_landing_leaves_nothing(make_pipeline, tmp_path):
    from pyspark.sql import SparkSession

    pipeline = make_pipeline("warmstop", {"cdc_formats": ["canal"]})
    os.environ["CDC_SCHEMA"] = pipeline.schema
    spark = SparkSession.builder.getOrCreate()
    outcome = warm_up(spark, PROJECT_DIR, run_dbt, dbt_command="build", dbt_args=[],
                      settings=pipeline.vars, scratch_dir=tmp_path, interrupted=lambda: True)
    assert outcome.startswith("stopped early: files arrived") and outcome.endswith("(0 builds)"), outcome
    assert databases(spark, f"{pipeline.schema}_warm_up") == []
    assert not Path(tmp_path / "warm-up").exists()
