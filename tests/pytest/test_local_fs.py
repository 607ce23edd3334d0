"""The embedded session's local file system without a `chmod` process per file
(python_udfs/pipeline/local_fs.py, java/NioLocalFileSystem.java).

`make install` compiles the file system into the virtual environment; the adapter makes it
the `file://` file system of local sessions only. These tests check the settings the adapter
adds, the build with and without a JDK compiler, and that this test session's JVM really
writes through it with the permissions Hadoop asks for.
"""

from __future__ import annotations

import os
import stat
import sys
import zipfile

import pytest

from python_udfs.pipeline import local_fs

pytestmark = [
    pytest.mark.dbt,
    # a JRE only (no javac): nothing is built and Spark keeps Hadoop's file system
    pytest.mark.skipif(
        local_fs._javac() is None, reason="no javac: the local file system is not built"
    ),
]


def test_the_settings_are_added_to_local_sessions_only(monkeypatch):
    monkeypatch.delenv(local_fs.ENV, raising=False)
    monkeypatch.setenv(local_fs.DIST_CLASSPATH, "")  # restored after the test
    jar = local_fs.jar_path()
    assert jar is not None and jar.is_file(), (
        f"no local file system jar at {jar}: `make install` (or `cdc-pipeline jvm-archive`) builds it"
    )
    added = local_fs.session_parameters({"spark.master": "local[2]", "spark.driver.memory": "4g"})
    assert added == {
        "spark.master": "local[2]",
        "spark.driver.memory": "4g",
        "spark.hadoop.fs.file.impl": local_fs.CLASS_NAME,
    }
    # the jar goes last on the class path (Spark's launcher appends this variable), once
    assert os.environ[local_fs.DIST_CLASSPATH] == str(jar)
    local_fs.session_parameters({"spark.master": "local[*]"})
    assert os.environ[local_fs.DIST_CLASSPATH] == str(jar)
    # a class path of the user's stays, before ours
    monkeypatch.setenv(local_fs.DIST_CLASSPATH, "/opt/hadoop/*")
    local_fs.session_parameters({"spark.master": "local[2]"})
    assert os.environ[local_fs.DIST_CLASSPATH] == f"/opt/hadoop/*{os.pathsep}{jar}"
    # a cluster's sessions, a file system the user chose, and the switch: left alone
    monkeypatch.setenv(local_fs.DIST_CLASSPATH, "")
    for parameters in (
        {"spark.master": "spark://127.0.0.1:7077"},
        {
            "spark.master": "local[2]",
            "spark.hadoop.fs.file.impl": "org.apache.hadoop.fs.RawLocalFileSystem",
        },
    ):
        assert local_fs.session_parameters(parameters) == parameters
    monkeypatch.setenv(local_fs.ENV, "off")
    assert local_fs.session_parameters({"spark.master": "local[2]"}) == {"spark.master": "local[2]"}
    assert os.environ[local_fs.DIST_CLASSPATH] == ""


def test_the_build_compiles_the_class_or_says_why_not(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(local_fs.ENV, raising=False)
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    jar = local_fs.build()
    assert jar is not None and jar.parent == tmp_path / "venv" / "share" / "cdc-changelog"
    with zipfile.ZipFile(jar) as archive:
        names = archive.namelist()
    assert "cdc/changelog/hadoop/NioLocalFileSystem.class" in names
    assert "cdc/changelog/hadoop/NioLocalFileSystem$Raw.class" in names
    assert local_fs.build() == jar  # built once
    # no JDK compiler (a JRE only): nothing is built, and the reason is printed
    jar.unlink()
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "no-jdk"))
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    assert local_fs.build() is None
    assert "no javac" in capsys.readouterr().err
    assert not jar.exists()


def test_the_session_writes_through_it_with_hadoops_permissions(make_pipeline, tmp_path):
    pipeline = make_pipeline("localfs", {"cdc_formats": ["canal"]})
    pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    jvm = spark.sparkContext._jvm
    configuration = spark.sparkContext._jsc.hadoopConfiguration()
    file_system = jvm.org.apache.hadoop.fs.Path(f"file://{tmp_path}").getFileSystem(configuration)
    assert file_system.getClass().getName() == local_fs.CLASS_NAME
    # last on the class path, so the class archive still maps (test_jvm_archive.py)
    class_path = jvm.java.lang.System.getProperty("java.class.path").split(os.pathsep)
    assert class_path[-1] == str(local_fs.jar_path())
    permission = jvm.org.apache.hadoop.fs.permission.FsPermission
    folder = jvm.org.apache.hadoop.fs.Path(f"file://{tmp_path}/a/b")
    assert file_system.mkdirs(folder, permission(0o750))
    assert stat.S_IMODE(os.stat(tmp_path / "a" / "b").st_mode) == 0o750
    file_system.setPermission(folder, permission(0o1777))  # the sticky bit: through chmod
    assert stat.S_IMODE(os.stat(tmp_path / "a" / "b").st_mode) == 0o1777
    # a Parquet write and read, checksum files included, as every model does
    spark.range(5).write.parquet(f"file://{tmp_path}/table")
    written = sorted(os.listdir(tmp_path / "table"))
    assert any(name.endswith(".parquet") for name in written)
    assert any(name.endswith(".parquet.crc") for name in written)
    assert spark.read.parquet(f"file://{tmp_path}/table").count() == 5
