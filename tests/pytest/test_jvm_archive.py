"""The class archive the embedded Spark driver starts from (python_udfs/pipeline/jvm_archive.py).

`make install` writes the virtual environment's archive (`cdc-pipeline jvm-archive`); every
driver JVM the adapter starts maps it. These tests check the options the adapter adds, and
that the JVM of this test session really runs with the environment's archive.
"""

from __future__ import annotations

import pytest

from python_udfs.pipeline import jvm_archive

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
