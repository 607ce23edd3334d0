"""The watch's per-batch Spark settings (python_udfs/pipeline/watch.py): a small batch is built
without generated code through the profile's variables, a large or unknown one with the
profile's defaults, and a variable the user set is never touched. Pure Python, no Spark."""

from __future__ import annotations

import os

import pytest

from python_udfs.pipeline.watch import CODEGEN_VARIABLES, CodegenBySize


@pytest.fixture
def unset_codegen(monkeypatch):
    for name in CODEGEN_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_small_batch_runs_interpreted_and_a_large_one_restores_the_defaults(unset_codegen):
    codegen = CodegenBySize(small_batch=100)
    assert codegen.fit(99) is True
    assert os.environ["CDC_WHOLE_STAGE_CODEGEN"] == "false"
    assert os.environ["CDC_CODEGEN_FACTORY_MODE"] == "NO_CODEGEN"
    assert codegen.fit(100) is False
    assert not any(name in os.environ for name in CODEGEN_VARIABLES)
    codegen.fit(5)
    assert codegen.fit(None) is False  # a first cycle that landed nothing: any amount may be left
    assert not any(name in os.environ for name in CODEGEN_VARIABLES)


def test_a_variable_the_user_set_is_left_alone(unset_codegen, monkeypatch):
    monkeypatch.setenv("CDC_WHOLE_STAGE_CODEGEN", "true")
    codegen = CodegenBySize(small_batch=100)
    assert codegen.fit(1) is True  # the factory mode is still the watch's to choose
    assert os.environ["CDC_WHOLE_STAGE_CODEGEN"] == "true"
    assert os.environ["CDC_CODEGEN_FACTORY_MODE"] == "NO_CODEGEN"
    codegen.fit(1000)
    assert os.environ["CDC_WHOLE_STAGE_CODEGEN"] == "true"
    assert "CDC_CODEGEN_FACTORY_MODE" not in os.environ


def test_zero_turns_it_off(unset_codegen):
    codegen = CodegenBySize(small_batch=0)
    assert codegen.fit(1) is False
    assert not any(name in os.environ for name in CODEGEN_VARIABLES)


def test_the_watch_lands_where_its_dbt_runs_read(tmp_path):
    """`--dbt-arg=--vars ...` reaches the landing too: its schema and formats are the ones the
    builds read (before, the watch landed into the project's default landing schema while the
    builds read the one given in `--vars`, and saw nothing new)."""
    from python_udfs.pipeline.cli import settings_with, vars_arguments

    project = tmp_path / "project"
    project.mkdir()
    (project / "dbt_project.yml").write_text(
        "vars:\n  cdc_formats: [canal, debezium]\n  cdc_landing_schema: cdc_landing\n",
        encoding="utf-8",
    )
    given = [
        "--exclude",
        "typed",
        "--vars",
        '{"cdc_landing_schema": "bench_landing", "cdc_formats": ["canal"]}',
    ]
    assert vars_arguments(given) == ["--vars", given[-1]]
    assert settings_with(project, given) == {
        "cdc_formats": ["canal"],
        "cdc_landing_schema": "bench_landing",
    }
    # `--vars=VALUE`, YAML, the last one wins; none: the project's
    assert settings_with(
        project, ["--vars={cdc_formats: [x]}", "--vars", "cdc_formats: [debezium]"]
    ) == {"cdc_formats": ["debezium"], "cdc_landing_schema": "cdc_landing"}
    assert vars_arguments(["--exclude", "typed"]) == []
    assert settings_with(project, []) == {
        "cdc_formats": ["canal", "debezium"],
        "cdc_landing_schema": "cdc_landing",
    }
    with pytest.raises(SystemExit, match="mapping"):
        settings_with(project, ["--vars", "[1, 2]"])
