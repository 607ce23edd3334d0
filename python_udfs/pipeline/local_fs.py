"""The embedded Spark's local file system without a ``chmod`` process per file.

Hadoop's local file system sets the permissions of every directory and file it creates; without
Hadoop's native library (pip's pyspark ships none) each time by starting a ``chmod`` process.
A small batch's build writes a few hundred directories and files (a task's temporary folders,
the Parquet file, its checksum file), so the JVM started about 170 processes per build of a
1,000-message batch, some 7 ms each, and as many threads to read their output
(bench/SUMMARY.md, 2026-11-29 late morning).

``java/NioLocalFileSystem.java`` is Hadoop's own ``LocalFileSystem`` (checksum files
included) whose permissions are set through ``java.nio`` instead. ``cdc-pipeline jvm-archive``
(run by ``make install``) compiles it with the JDK's ``javac`` into this virtual
environment, and the adapter then makes it the ``file://`` file system of a local-mode
session (``spark.hadoop.fs.file.impl``, the jar last on the driver's class path); a cluster's
sessions are left alone. With no
``javac`` (a JRE only) nothing is built and Spark runs as before. ``CDC_LOCAL_FS=off`` turns it
off.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ENV = "CDC_LOCAL_FS"
CLASS_NAME = "cdc.changelog.hadoop.NioLocalFileSystem"
SOURCE = Path(__file__).parent / "java" / "NioLocalFileSystem.java"
PREFIX = "cdc-local-fs-"
# Spark's launcher appends this variable to the driver's class path (session_parameters)
DIST_CLASSPATH = "SPARK_DIST_CLASSPATH"


def _off() -> bool:
    return os.environ.get(ENV, "").lower() in ("off", "0", "false", "no")


def _hadoop_api_jar() -> Path | None:
    try:
        import pyspark
    except ImportError:
        return None
    jars = sorted((Path(pyspark.__file__).parent / "jars").glob("hadoop-client-api-*.jar"))
    return jars[-1] if jars else None


def _javac() -> Path | None:
    home = os.environ.get("JAVA_HOME")
    candidates = [Path(home) / "bin" / "javac"] if home else []
    found = shutil.which("javac")
    candidates += [Path(found)] if found else []
    return next((c for c in candidates if c.exists()), None)


def jar_path() -> Path | None:
    """Where this environment's jar lives (it may not exist yet); None when off or no pyspark.
    Named by a digest of the source and of pyspark's Hadoop jar: another of either builds anew."""
    hadoop = _hadoop_api_jar()
    if _off() or hadoop is None:
        return None
    digest = hashlib.sha256(SOURCE.read_bytes())
    digest.update(hadoop.name.encode())
    return Path(sys.prefix) / "share" / "cdc-changelog" / f"{PREFIX}{digest.hexdigest()[:16]}.jar"


def build(force: bool = False) -> Path | None:
    """Compile the file system into this environment's jar (unless it exists); returns its
    path, or None (off, no JDK compiler, or the compiler failed: the reason on stderr)."""
    path, hadoop, javac = jar_path(), _hadoop_api_jar(), _javac()
    if path is None or hadoop is None:
        return None
    if path.is_file() and not force:
        return path
    if javac is None:
        print(
            "local-fs: no javac (a JDK, not a JRE); Spark keeps Hadoop's local file system",
            file=sys.stderr,
        )
        return None
    work = Path(tempfile.mkdtemp(prefix="cdc-local-fs-"))
    try:
        classes = work / "classes"
        compiled = subprocess.run(
            [
                str(javac),
                "--release",
                "17",
                "-nowarn",
                "-cp",
                str(hadoop),
                "-d",
                str(classes),
                str(SOURCE),
            ],
            capture_output=True,
            text=True,
        )
        if compiled.returncode != 0:
            print(
                f"local-fs: javac failed; Spark keeps Hadoop's local file system\n{compiled.stderr[-2000:]}",
                file=sys.stderr,
            )
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = work / path.name
        # a jar is a zip file of the classes (no manifest needed on a class path)
        shutil.make_archive(str(temporary.with_suffix("")), "zip", classes)
        os.replace(temporary.with_suffix(".zip"), path)
        for other in path.parent.glob(f"{PREFIX}*.jar"):
            if other != path:
                other.unlink(missing_ok=True)
        return path
    finally:
        shutil.rmtree(work, ignore_errors=True)


def session_parameters(parameters: dict[str, str]) -> dict[str, str]:
    """``parameters`` (a session's Spark settings) with the file system added, when the master
    is local, the jar is built and the settings do not name a ``file://`` file system already.

    The jar goes on the driver's class path through ``SPARK_DIST_CLASSPATH`` (set here, for the
    JVM this process starts), which Spark's launcher puts last: the class archive
    (jvm_archive.py) maps only into a JVM whose class path starts as the archiving one's did,
    so a jar put first (``spark.driver.extraClassPath``) would turn it off.
    """
    path = jar_path()
    master = str(parameters.get("spark.master", "local"))
    if (
        path is None
        or not path.is_file()
        or not master.startswith("local")
        or "spark.hadoop.fs.file.impl" in parameters
    ):
        return parameters
    class_path = os.environ.get(DIST_CLASSPATH, "")
    if str(path) not in class_path.split(os.pathsep):
        os.environ[DIST_CLASSPATH] = f"{class_path}{os.pathsep}{path}" if class_path else str(path)
    return {**parameters, "spark.hadoop.fs.file.impl": CLASS_NAME}
