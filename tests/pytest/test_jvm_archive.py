"""The class archive the embedded Spark driver starts from (python_udfs/pipeline/jvm_archive.py).

`make install` writes the virtual environment's archive (`cdc-pipeline jvm-archive`); every
driver JVM the adapter starts maps it. These tests check the options the adapter adds, that
the JVM of this test session really runs with the environment's archive, and that a CLI run
asked for an archive of its own (`-XX:ArchiveClassesAtExit` in CDC_JVM_OPTIONS) writes one
the next run can map.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from python_udfs.pipeline import jvm_archive

from .conftest import PROJECT_DIR, subprocess_env

pytestmark = pytest.mark.dbt


def test_the_options_follow_the_archive_file(tmp_path, monkeypatch):
    archive = tmp_path / "classes.jsa"
    monkeypatch.setenv(jvm_archive.ENV, str(archive))
    # no archive yet: the JVM starts as before
    assert jvm_archive.java_options() == ""
    assert jvm_archive.with_archive("-XX:+UseParallelGC") == "-XX:+UseParallelGC"
    archive.write_bytes(b"x")
    options = jvm_archive.with_archive("-XX:+UseParallelGC")
    assert options.startswith("-XX:+UseParallelGC -XX:SharedArchiveFile=")
    assert str(archive) in options
    # JVM messages (a stale archive's warning) go to stderr: stdout carries query results
    assert "-Xlog:all=warning:stderr" in options
    # added once, and never over an option the user set
    assert jvm_archive.with_archive(options) == options
    own = "-XX:SharedArchiveFile=/elsewhere.jsa"
    assert jvm_archive.with_archive(own) == own
    monkeypatch.setenv(jvm_archive.ENV, "off")
    assert jvm_archive.archive_path() is None
    assert jvm_archive.with_archive(None) == ""


def test_the_archive_is_named_by_the_jdk_and_the_jars(monkeypatch):
    monkeypatch.delenv(jvm_archive.ENV, raising=False)
    path = jvm_archive.archive_path()
    assert path is not None and path.name.startswith(jvm_archive.PREFIX) and path.suffix == ".jsa"
    # the same environment always names the same file
    assert jvm_archive.archive_path() == path


def test_the_session_jvm_maps_the_environments_archive(make_pipeline, monkeypatch):
    monkeypatch.delenv(jvm_archive.ENV, raising=False)
    expected = jvm_archive.archive_path()
    assert expected is not None and expected.is_file(), (
        f"no class archive at {expected}: `make install` (or `cdc-pipeline jvm-archive`) writes it"
    )
    pipeline = make_pipeline("jvmarchive", {"cdc_formats": ["canal"]})
    pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
    from pyspark.sql import SparkSession

    jvm = SparkSession.builder.getOrCreate().sparkContext._jvm
    diagnostics = jvm.java.lang.management.ManagementFactory.getPlatformMXBean(
        jvm.java.lang.Class.forName("com.sun.management.HotSpotDiagnosticMXBean")
    )
    assert diagnostics.getVMOption("SharedArchiveFile").getValue() == str(expected)
    assert diagnostics.getVMOption("UseSharedSpaces").getValue() == "true"


def test_an_archive_or_cache_of_the_users_own_replaces_the_environments(tmp_path, monkeypatch):
    archive = tmp_path / "classes.jsa"
    archive.write_bytes(b"x")
    monkeypatch.setenv(jvm_archive.ENV, str(archive))
    for own in ("-XX:AOTCache=/caches/app.aot", "-XX:AOTCacheOutput=/caches/app.aot",
                "-XX:AOTMode=record -XX:AOTConfiguration=/caches/app.conf",
                "-XX:ArchiveClassesAtExit=/caches/own.jsa"):
        assert jvm_archive.with_archive(f"-XX:+UseParallelGC {own}") == f"-XX:+UseParallelGC {own}"
    assert jvm_archive.exit_dump_requested("-XX:+UseParallelGC -XX:ArchiveClassesAtExit=/a.jsa")
    assert jvm_archive.exit_dump_requested("-XX:AOTCacheOutput=/a.aot")
    assert not jvm_archive.exit_dump_requested("-XX:AOTCache=/a.aot")
    assert not jvm_archive.exit_dump_requested("-XX:+UseParallelGC")


def jdk_with_aot_cache() -> Path | None:
    """A JDK 25 or newer (AOT cache with method profiles, JEP 515) under /usr/lib/jvm, or None."""
    for java in sorted(Path("/usr/lib/jvm").glob("*/bin/java")):
        version = subprocess.run([str(java), "-version"], capture_output=True, text=True).stderr
        match = re.search(r'version "(\d+)', version)
        if match and int(match[1]) >= 25:
            return java.parents[1]
    return None


# (JAVA_HOME or None for the default java, options that write, options that must use it)
WAYS = {
    "class archive, default JDK": (
        None, "-XX:ArchiveClassesAtExit={path}", "-XX:SharedArchiveFile={path} -Xshare:on"),
    "AOT cache, JDK 25": (
        "jdk25", "-XX:AOTCacheOutput={path}", "-XX:AOTCache={path} -XX:AOTMode=on"),
}


@pytest.mark.parametrize("way", WAYS)
def test_a_cli_run_writes_the_archive_its_options_ask_for_before_it_returns(tmp_path, way):
    """The CLI lets its driver JVM exit on its own when CDC_JVM_OPTIONS asks for an archive or
    an AOT cache at exit, and returns once it is written (the JVM writes it as it exits; a JDK
    25 cache took 11 s more, written by a JVM Python had already left): the file is there when
    the command returns, and the next run uses it (-Xshare:on and -XX:AOTMode=on make the JVM
    refuse to start otherwise)."""
    java_home, write, use = WAYS[way]
    extra = {}
    if java_home:
        found = jdk_with_aot_cache()
        if found is None:
            pytest.skip("no JDK 25 or newer under /usr/lib/jvm")
        extra["JAVA_HOME"] = str(found)
    own = tmp_path / "own.cache"
    cli = [sys.executable, "-m", "python_udfs.pipeline.cli", "--project-dir", str(PROJECT_DIR),
           "dbt", "run-operation", "create_landing_tables", "--vars", '{"cdc_formats": ["canal"]}']

    def run(jvm_options: str) -> tuple[int, str]:
        env = subprocess_env(CDC_LOCAL_DIR=str(tmp_path / "local"), CDC_SCHEMA="own_archive",
                             CDC_JVM_OPTIONS=f"-XX:+UseParallelGC {jvm_options.format(path=own)}",
                             DBT_TARGET_PATH=str(tmp_path / "target"), DBT_LOG_PATH=str(tmp_path / "logs"),
                             **extra)
        # output to a file, not a pipe: a JVM left running holds a pipe open, and reading it
        # to its end would wait for that JVM as the CLI itself must
        log = tmp_path / "cli.log"
        with open(log, "w", encoding="utf-8") as handle:
            status = subprocess.run(cli, env=env, stdout=handle, stderr=subprocess.STDOUT, timeout=600).returncode
        return status, log.read_text(encoding="utf-8", errors="replace")[-3000:]

    status, output = run(write)
    assert status == 0, output
    assert own.is_file() and own.stat().st_size > 1_000_000, output
    status, output = run(use)
    assert status == 0, output
