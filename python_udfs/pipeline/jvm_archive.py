"""A class-data-sharing archive of the embedded Spark driver (JDK dynamic AppCDS).

Starting embedded Spark loads and verifies thousands of classes from pyspark's jars, the Hive
metastore's included. A dynamic CDS archive (``-XX:ArchiveClassesAtExit`` to write it,
``-XX:SharedArchiveFile`` to use it; JDK 13+) holds those classes already parsed and verified,
and the JVM maps it instead: on the 2-core machine of the benchmark, a session with its
metastore was ready in about 10.5 s instead of 17.5 s (docs/operations.md).

``cdc-pipeline jvm-archive`` (run by ``make install``) writes the archive once per virtual
environment; the adapter passes it to every driver JVM it starts (``java_options``). The
archive is named by a digest of the Java executable and pyspark's jars, so another JDK or
another pyspark never uses a stale one; the JVM checks it again and starts without it if it
does not match (silently here; any JVM message goes to stderr). ``CDC_JVM_ARCHIVE`` overrides the file's path, or
turns the archive off (``off``).

An archive or AOT cache of the user's own in ``CDC_JVM_OPTIONS`` replaces it
(``OWN_ARCHIVE_OPTIONS``); one asked for at exit (``EXIT_DUMP_OPTIONS``, e.g. JDK 25's
``-XX:AOTCacheOutput``) is trained on a real run: the CLI then stops Spark and waits for the
JVM to write it (``stop_and_wait_for_the_jvm``; docs/operations.md, "Train the JVM on your
own runs").
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from python_udfs.pipeline import local_fs

ENV = "CDC_JVM_ARCHIVE"
PREFIX = "spark-classes-"
# JVM log output (a warning that the archive does not match, for one) on stderr, never on
# stdout: commands such as `cdc-pipeline query` print their rows there.
LOG_OPTIONS = "-Xlog:disable -Xlog:all=warning:stderr"


def _java() -> Path | None:
    home = os.environ.get("JAVA_HOME")
    java = Path(home) / "bin" / "java" if home else None
    if java is None or not java.exists():
        found = shutil.which("java")
        java = Path(found) if found else None
    return java.resolve() if java else None


def archive_path() -> Path | None:
    """Where the archive of this environment lives (it may not exist yet); None when off."""
    setting = os.environ.get(ENV, "")
    if setting.lower() in ("off", "0", "false", "no"):
        return None
    if setting:
        return Path(setting)
    java = _java()
    try:
        import pyspark
    except ImportError:
        return None
    if java is None:
        return None
    jars = Path(pyspark.__file__).parent / "jars"
    digest = hashlib.sha256()
    stat = java.stat()
    digest.update(f"{java}|{stat.st_size}|{stat.st_mtime_ns}|{pyspark.__version__}".encode())
    for jar in sorted(jars.glob("*.jar")):
        jar_stat = jar.stat()
        digest.update(f"|{jar.name}:{jar_stat.st_size}:{jar_stat.st_mtime_ns}".encode())
    return Path(sys.prefix) / "share" / "cdc-changelog" / f"{PREFIX}{digest.hexdigest()[:16]}.jsa"


def java_options() -> str:
    """Driver JVM options that use the archive, or "" when there is none (or it is off)."""
    path = archive_path()
    if path is None or not path.is_file():
        return ""
    return f"-XX:SharedArchiveFile={path} {LOG_OPTIONS}"


# Options that name an archive or AOT cache of the user's own: the environment's is left out.
# (JDK 24+: -XX:AOTCache uses a cache, -XX:AOTCacheOutput / -XX:AOTMode write one.)
OWN_ARCHIVE_OPTIONS = ("SharedArchiveFile", "ArchiveClassesAtExit", "AOTCache", "AOTMode")
# Options with which the JVM writes an archive or a cache when it exits.
EXIT_DUMP_OPTIONS = ("-XX:ArchiveClassesAtExit=", "-XX:AOTCacheOutput=")


def with_archive(java_options_value: str | None) -> str:
    """`spark.driver.extraJavaOptions` with the archive's options added (once)."""
    current = java_options_value or ""
    if any(name in current for name in OWN_ARCHIVE_OPTIONS):
        return current  # (before java_options: naming the archive stats pyspark's 279 jars)
    extra = java_options()
    if not extra:
        return current
    return f"{current} {extra}".strip()


def exit_dump_requested(driver_options: str | None = None) -> bool:
    """Whether the driver JVM (options ``driver_options``, default ``CDC_JVM_OPTIONS``) writes
    an archive or an AOT cache when it exits (EXIT_DUMP_OPTIONS)."""
    options = os.environ.get("CDC_JVM_OPTIONS", "") if driver_options is None else driver_options
    return any(option in options for option in EXIT_DUMP_OPTIONS)


def stop_and_wait_for_the_jvm(timeout: float = 900) -> bool:
    """Stop this process's Spark session and let its driver JVM exit on its own, waiting for
    it: a JVM asked to write an archive or a cache at its exit writes it then, and without the
    wait Python returned while the JVM, left on its own, was still writing. False when no JVM
    was started here."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    gateway = SparkContext._gateway
    if gateway is None:
        return False
    process = getattr(gateway, "proc", None)
    active = SparkSession.getActiveSession()
    if active is not None:
        active.stop()
    gateway.shutdown()
    if process is not None:
        process.stdin.close()  # the gateway JVM exits when its stdin closes
        process.wait(timeout=timeout)
    return True


# The work the archiving JVM does: what a build does, at the smallest size (the Hive
# metastore, Parquet tables, JSON, aggregates, windows, joins, Arrow UDFs; generated and
# interpreted code). A class it does not load is read from its jar as usual.
WORKLOAD = (
    "create database if not exists cdc_archive",
    "create table cdc_archive.events using parquet partitioned by (part) as "
    "select id, cast(id as string) as name, to_json(named_struct('id', id, 'at', current_timestamp())) as doc, "
    "cast(id % 2 as int) as part from range(200)",
    "create table cdc_archive.keyed (id bigint, state map<string, string>) using parquet",
    "insert into cdc_archive.keyed select id, map('doc', doc) from cdc_archive.events",
    "select part, count(*), max_by(name, id), sha2(max(doc), 256) from cdc_archive.events group by part",
    "select e.id, from_json(e.doc, 'id bigint, at timestamp').at, "
    "row_number() over (partition by e.part order by e.id desc) from cdc_archive.events e "
    "left anti join cdc_archive.keyed k on e.id = k.id + 1000",
    "insert overwrite table cdc_archive.events partition (part) "
    "select id, name, doc, part from cdc_archive.events where id < 10",
    "show tblproperties cdc_archive.events",
)


def _dump(target: Path) -> int:
    """Start Spark with -XX:ArchiveClassesAtExit=target, run WORKLOAD, wait for the JVM's exit."""
    from pyspark.sql import SparkSession
    from pyspark.sql.functions import pandas_udf

    work = Path(tempfile.mkdtemp(prefix="cdc-jvm-archive-"))
    try:
        spark = (
            SparkSession.builder.master("local[2]")
            .enableHiveSupport()
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.warehouse.dir", str(work / "warehouse"))
            .config("spark.local.dir", str(work / "tmp"))
            .config(
                "spark.hadoop.javax.jdo.option.ConnectionURL",
                f"jdbc:derby:;databaseName={work}/metastore_db;create=true",
            )
            .config("spark.sql.sources.partitionOverwriteMode", "dynamic")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .config(
                "spark.driver.extraJavaOptions",
                f"-Dderby.system.home={work} -XX:ArchiveClassesAtExit={target} -XX:+UseParallelGC {LOG_OPTIONS}",
            )
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")

        @pandas_udf("string")  # type: ignore[call-overload]
        def upper(values):  # an Arrow (pandas) UDF, like the project's decoders
            return values.str.upper()

        spark.udf.register("cdc_archive_upper", upper)
        for codegen in ("true", "false"):
            spark.conf.set("spark.sql.codegen.wholeStage", codegen)
            spark.conf.set(
                "spark.sql.codegen.factoryMode", "FALLBACK" if codegen == "true" else "NO_CODEGEN"
            )
            spark.sql("drop database if exists cdc_archive cascade")
            for statement in WORKLOAD:
                spark.sql(statement).collect()
            spark.sql("select cdc_archive_upper(name) from cdc_archive.events").collect()
        stop_and_wait_for_the_jvm(timeout=600)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if target.is_file() and target.stat().st_size > 0 else 1


def create(force: bool = False) -> Path | None:
    """Write this environment's archive (unless it exists); returns its path, or None.

    The archiving JVM writes to a temporary file that replaces the archive only once
    complete: a JVM mapping a half-written archive would crash. Older archives beside it
    (another pyspark or JDK) are removed.
    """
    local_fs.build(force=force)  # the local file system's jar (local_fs.py): make install builds both
    path = archive_path()
    if path is None:
        return None
    if path.is_file() and not force:
        return path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(
            f"jvm-archive: cannot write {path.parent} ({error}); Spark starts without an archive",
            file=sys.stderr,
        )
        return None
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    environment = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_SUBMIT_ARGS", ENV)}
    environment.setdefault("PYSPARK_PYTHON", sys.executable)
    environment.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    result = subprocess.run(
        [sys.executable, "-m", "python_udfs.pipeline.jvm_archive", "--dump", str(temporary)],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    if result.returncode != 0 or not temporary.is_file():
        temporary.unlink(missing_ok=True)
        tail = "\n".join(result.stderr.splitlines()[-5:])
        print(
            f"jvm-archive: the archiving JVM failed; Spark starts without an archive\n{tail}",
            file=sys.stderr,
        )
        return None
    os.replace(temporary, path)
    if not os.environ.get(ENV):
        for other in path.parent.glob(f"{PREFIX}*.jsa"):
            if other != path:
                other.unlink(missing_ok=True)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dump", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--force", action="store_true", help="write the archive again")
    args = parser.parse_args(argv)
    if args.dump:
        return _dump(args.dump)
    path = create(force=args.force)
    print(
        f"JVM class archive: {path}"
        if path
        else "JVM class archive: none (Spark starts without one)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
