"""A Spark Thrift Server (HiveServer2 protocol) that has the project's Python UDFs.

A Thrift Server started the usual way (``start-thriftserver.sh``) is a JVM without Python:
nothing a JDBC/ODBC client or dbt's ``method: thrift`` sends can register a Python UDF in it
(``CREATE FUNCTION`` only takes JVM classes). This script does it the other way round: it is
a PySpark driver that builds the session from a target of ``profiles/profiles.yml`` (same
master, warehouse and metastore settings), registers the UDFs of
:mod:`python_udfs.spark_udfs`, and then starts ``HiveThriftServer2`` inside that driver via
py4j. With ``spark.sql.hive.thriftServer.singleSession=true`` every client connection uses
that one session, so the UDFs (session-scoped temporary functions) are visible to all of them.

    .venv/bin/python scripts/thrift-server.py [--target embedded|cluster] [--port 10000]

It serves until interrupted (Ctrl-C / SIGTERM). Connect with the `thrift` target of
profiles/profiles.yml (``CDC_TARGET=thrift``, needs ``pip install "dbt-spark[PyHive]"``) or
with ``beeline -u jdbc:hive2://127.0.0.1:10000``. See docs/running-on-a-cluster.md.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]


def profile_spark_conf(target: str) -> dict[str, str]:
    """``server_side_parameters`` of a target of profiles/profiles.yml, env vars rendered."""
    import jinja2
    import yaml

    def env_var(name: str, default: str | None = None) -> str:
        if name in os.environ:
            return os.environ[name]
        if default is None:
            raise SystemExit(f"profiles.yml needs the environment variable {name}")
        return default

    profiles_dir = Path(os.environ.get("DBT_PROFILES_DIR", PROJECT_DIR / "profiles"))
    text = (profiles_dir / "profiles.yml").read_text(encoding="utf-8")
    environment = jinja2.Environment()
    # dbt's profile filters; the values end up as Spark settings (text) anyway
    for name in ("as_number", "as_bool", "as_text", "as_native"):
        environment.filters[name] = lambda value: value
    rendered = environment.from_string(text).render(env_var=env_var)
    outputs = yaml.safe_load(rendered)["cdc_changelog"]["outputs"]
    if target not in outputs or outputs[target].get("method") != "session":
        raise SystemExit(f"profiles.yml has no `method: session` target named {target!r}")
    return {
        str(k): str(v) for k, v in (outputs[target].get("server_side_parameters") or {}).items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--target", default="embedded", help="profile target whose Spark settings to use"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=10000)
    args = parser.parse_args(argv)

    # the same defaults the dbt plugin and the CLI use
    os.environ.setdefault("CDC_LOCAL_DIR", str(PROJECT_DIR / ".cdc_local"))
    os.environ.setdefault("CDC_LOG4J_CONFIG", str(PROJECT_DIR / "profiles" / "log4j2.properties"))
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")

    from pyspark.sql import SparkSession

    from python_udfs.spark_udfs import register_udfs

    builder = SparkSession.builder.appName("cdc_changelog_thrift_server").enableHiveSupport()
    for key, value in profile_spark_conf(args.target).items():
        builder = builder.config(key, value)
    builder = (
        builder.config("spark.app.name", "cdc_changelog_thrift_server")
        .config("spark.sql.hive.thriftServer.singleSession", "true")
        .config("spark.hadoop.hive.server2.thrift.bind.host", args.host)
        .config("spark.hadoop.hive.server2.thrift.port", str(args.port))
        .config("spark.hadoop.hive.server2.transport.mode", "binary")
    )
    spark = builder.getOrCreate()
    names = register_udfs(spark)

    jvm = spark._jvm  # type: ignore[attr-defined]
    jvm.org.apache.spark.sql.hive.thriftserver.HiveThriftServer2.startWithContext(
        spark._jsparkSession.sqlContext()  # type: ignore[attr-defined]
    )
    print(
        f"Thrift Server on {args.host}:{args.port} (master {spark.sparkContext.master}), "
        f"Python UDFs: {', '.join(names)}",
        flush=True,
    )

    stopping = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopping.set())
    while not stopping.wait(1):
        pass
    spark.stop()  # stops the Thrift Server with the SparkContext
    return 0


if __name__ == "__main__":
    sys.exit(main())
