"""The quick JIT of a small one-shot process (python_udfs/pipeline/jit_mode.py).

The CLI's one-shot landing commands set CDC_JIT=quick when their local input is small, and
the adapter then starts the driver JVM with C1 only. These tests check the choice on real
files (sizes, folders, binary formats, URIs, the user's own setting), the options the adapter
adds, and that a real `cdc-pipeline land` of a sample starts its JVM with them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from python_udfs.pipeline import jit_mode

from .conftest import PROJECT_DIR, subprocess_env


@pytest.fixture(autouse=True)
def no_jit_setting(monkeypatch):
    """No CDC_JIT and no choice made yet; both as they were after the test."""
    monkeypatch.delenv(jit_mode.ENV, raising=False)
    monkeypatch.setattr(jit_mode, "_chosen", None)


def test_the_options_follow_the_setting(monkeypatch):
    assert jit_mode.with_jit("-XX:+UseParallelGC") == "-XX:+UseParallelGC"
    monkeypatch.setenv(jit_mode.ENV, "quick")
    assert jit_mode.with_jit("-XX:+UseParallelGC") == f"-XX:+UseParallelGC {jit_mode.QUICK_OPTIONS}"
    assert jit_mode.with_jit(None) == jit_mode.QUICK_OPTIONS
    # a JIT option of the user's own wins
    assert jit_mode.with_jit("-XX:TieredStopAtLevel=3") == "-XX:TieredStopAtLevel=3"
    monkeypatch.setenv(jit_mode.ENV, "full")
    assert jit_mode.with_jit("-XX:+UseParallelGC") == "-XX:+UseParallelGC"


def test_a_small_landing_runs_the_quick_jit(tmp_path):
    folder = tmp_path / "canal"
    folder.mkdir()
    (folder / "a.jsonl").write_text('{"type": "INSERT"}\n' * 100, encoding="utf-8")
    (folder / "README.md").write_text("x" * 10_000, encoding="utf-8")  # not a message file
    size = (folder / "a.jsonl").stat().st_size
    assert jit_mode.local_input_bytes({"canal": [folder]}, limit=10**9) == size
    assert jit_mode.choose_for_input({"canal": [folder]}) == "quick"
    assert jit_mode.jit_setting() == "quick"
    assert jit_mode.with_jit("-XX:+UseParallelGC") == f"-XX:+UseParallelGC {jit_mode.QUICK_OPTIONS}"
    # the choice is this process's: a process it starts does not inherit it
    assert jit_mode.ENV not in os.environ


def test_a_large_landing_keeps_the_default(tmp_path):
    file = tmp_path / "a.jsonl"
    file.write_text("{}\n" * 1000, encoding="utf-8")
    assert jit_mode.choose_for_input({"canal": [file]}, limit=1000) is None
    assert jit_mode.jit_setting() == ""
    assert jit_mode.with_jit("-XX:+UseParallelGC") == "-XX:+UseParallelGC"


def test_binary_messages_count_with_their_format(tmp_path):
    """A DTS Avro file is counted as the format's message file (its suffix is that format's)."""
    sample = PROJECT_DIR / "samples" / "dts_avro"
    counted = jit_mode.local_input_bytes({"dts_avro": [sample]}, limit=10**9)
    assert counted == sum(p.stat().st_size for p in sample.iterdir() if p.is_file())
    assert counted > 0


@pytest.mark.parametrize("given", ["s3a://bucket/landing/canal/", "missing-folder"])
def test_an_input_it_cannot_measure_keeps_the_default(tmp_path, given):
    path = given if "://" in given else tmp_path / given
    assert jit_mode.local_input_bytes({"canal": [path]}, limit=10**9) is None
    assert jit_mode.choose_for_input({"canal": [path]}) is None


def test_the_users_setting_stays(monkeypatch):
    monkeypatch.setenv(jit_mode.ENV, "full")
    assert jit_mode.choose_for_input({"canal": [PROJECT_DIR / "samples" / "canal"]}) == "full"
    assert jit_mode.with_jit("-XX:+UseParallelGC") == "-XX:+UseParallelGC"


@pytest.mark.dbt
def test_a_cli_landing_of_a_sample_starts_its_jvm_with_c1_only(tmp_path):
    """`cdc-pipeline land` of the Canal sample, with the profile's default JVM options: the
    driver JVM it starts runs C1 only (its input arguments say so)."""
    script = (
        "import sys\n"
        "from python_udfs.pipeline import cli\n"
        "status = cli.main(sys.argv[1:])\n"
        "from pyspark import SparkContext\n"
        "jvm = SparkContext._active_spark_context._jvm\n"
        "print('JVM ARGUMENTS', ' '.join(jvm.java.lang.management.ManagementFactory.getRuntimeMXBean()"
        ".getInputArguments()))\n"
        "sys.exit(status)\n"
    )
    env = subprocess_env(CDC_LOCAL_DIR=str(tmp_path / "local"), CDC_SCHEMA="quick_jit",
                         CDC_JVM_OPTIONS="-XX:+UseParallelGC",
                         DBT_TARGET_PATH=str(tmp_path / "target"), DBT_LOG_PATH=str(tmp_path / "logs"))
    env.pop(jit_mode.ENV, None)
    result = subprocess.run(
        [sys.executable, "-c", script, "--project-dir", str(PROJECT_DIR), "land", "--format", "canal",
         "--vars", '{"cdc_formats": ["canal"]}', str(PROJECT_DIR / "samples" / "canal")],
        env=env, cwd=Path(tmp_path), capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    arguments = next(line for line in result.stdout.splitlines() if line.startswith("JVM ARGUMENTS"))
    assert "-XX:TieredStopAtLevel=1" in arguments and "-XX:ReservedCodeCacheSize=240m" in arguments
    assert "landed" in result.stdout
