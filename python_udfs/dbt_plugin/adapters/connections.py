"""Connections that register the project's Python UDFs in the embedded Spark session."""

from __future__ import annotations

import functools
import os
import sys
from dataclasses import dataclass

from dbt.adapters.contracts.connection import Connection
from dbt.adapters.events.logging import AdapterLogger
from dbt.adapters.spark.connections import (
    SparkConnectionManager,
    SparkConnectionMethod,
    SparkCredentials,
)

from python_udfs.pipeline.codegen import INTERPRETED, SPARK_DEFAULTS
from python_udfs.pipeline.jit_mode import with_jit
from python_udfs.pipeline.jvm_archive import with_archive
from python_udfs.pipeline.local_fs import session_parameters

logger = AdapterLogger("SparkCdc")

# Python workers must run this interpreter, or they cannot import the UDF package.
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")


@dataclass
class SparkCdcCredentials(SparkCredentials):
    @property
    def type(self) -> str:
        return "spark_cdc"


# The session, invocation and parameters of the last application (session_with).
_APPLIED: dict = {"session": None, "invocation": None, "parameters": None}


def session_with(server_side_parameters: dict[str, str]):
    """The Spark session (started if there is none) with ``server_side_parameters`` applied.

    dbt-spark's session cursor builds a session from all the profile's parameters before every
    statement: about 30 Py4J calls, 1.5-3.5 ms a statement, 0.2-0.4 s of a 1,000-message
    batch's build (bench/results/2026-12-05-seventh-dbt-overhead). Within an invocation they
    change only when the codegen fit (fit_codegen) changes them, so they are applied at an
    invocation's first statement, and again only when they differ from those last applied to
    the same live session. (Code outside dbt that sets one between invocations, such as a
    landing in the same process, is overridden at the next invocation, as before.)"""
    from dbt_common.invocation import get_invocation_id
    from pyspark.sql import SparkSession

    session = SparkSession._instantiatedSession
    invocation = get_invocation_id()
    if (
        session is not None
        and session is _APPLIED["session"]
        and session._sc._jsc is not None
        and _APPLIED["invocation"] == invocation
        and _APPLIED["parameters"] == server_side_parameters
    ):
        return session
    builder = SparkSession.builder.enableHiveSupport()
    for key, value in server_side_parameters.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    _APPLIED.update(session=session, invocation=invocation, parameters=dict(server_side_parameters))
    return session


def caching_session_handle(server_side_parameters: dict[str, str]):
    """dbt-spark's session connection handle, whose cursors apply the profile's parameters only
    when they changed (session_with)."""
    from dbt.adapters.spark.session import SessionConnectionWrapper

    return SessionConnectionWrapper(_caching_handle_class()(server_side_parameters=server_side_parameters))


@functools.cache
def _caching_handle_class():
    """The handle class of caching_session_handle, made once (only a session connection needs
    PySpark, so it is not imported with the module)."""
    from dbt.adapters.spark.session import Connection as SessionHandle
    from dbt.adapters.spark.session import Cursor
    from dbt_common.exceptions import DbtRuntimeError
    from pyspark.sql.utils import AnalysisException

    class ParameterCachingCursor(Cursor):
        def execute(self, sql: str, *parameters) -> None:
            if parameters:
                sql = sql % parameters
            spark_session = session_with(self.server_side_parameters)
            try:
                self._df = spark_session.sql(sql)
            except AnalysisException as exc:
                raise DbtRuntimeError(str(exc)) from exc

    class ParameterCachingHandle(SessionHandle):
        def cursor(self) -> ParameterCachingCursor:
            return ParameterCachingCursor(server_side_parameters=self.server_side_parameters)

    return ParameterCachingHandle


def ensure_udfs(server_side_parameters: dict[str, str]) -> None:
    """Get (or start) the session the dbt-spark cursor will use and register the UDFs once."""
    from python_udfs.spark_udfs import register_udfs

    spark = session_with(server_side_parameters)
    if getattr(spark, "_cdc_udfs_registered", False):
        return
    names = register_udfs(spark)
    spark._cdc_udfs_registered = True  # type: ignore[attr-defined]
    logger.debug(f"registered Python UDFs: {', '.join(names)}")


# Spark's generated code, fitted to the size of an invocation's input (adapter method
# cdc_fit_codegen; the settings: python_udfs/pipeline/codegen.py). The session cursor applies
# the profile's server_side_parameters when they change (session_with), so the fit changes that
# dict; the profile's own values are kept per invocation to go back to.
_CODEGEN_FIT: dict = {"invocation": None, "profile": {}}


def fit_codegen(invocation_id: str, interpreted: bool, parameters: dict[str, str]) -> dict[str, str]:
    """Generated code off (``interpreted``) or as the profile says, from the next statement on,
    by setting the session parameters ``parameters`` (the credentials' dict, which every
    statement applies). A setting whose variable (``CDC_WHOLE_STAGE_CODEGEN``,
    ``CDC_CODEGEN_FACTORY_MODE``) is set is left alone: the user's, or `cdc-pipeline watch`'s
    own choice per batch. Returns the settings chosen."""
    if _CODEGEN_FIT["invocation"] != invocation_id:
        profile = {key: parameters.get(key, SPARK_DEFAULTS[key]) for key, _ in INTERPRETED.values()}
        _CODEGEN_FIT.update(invocation=invocation_id, profile=profile)
    chosen: dict[str, str] = {}
    for variable, (key, value) in INTERPRETED.items():
        if variable not in os.environ:
            chosen[key] = parameters[key] = value if interpreted else _CODEGEN_FIT["profile"][key]
    return chosen


def _jvm_started() -> bool:
    """Whether this process runs a Spark driver JVM already (its options are fixed then)."""
    if "pyspark" not in sys.modules:
        return False
    from pyspark import SparkContext

    return SparkContext._active_spark_context is not None


class SparkCdcConnectionManager(SparkConnectionManager):
    TYPE = "spark_cdc"

    @classmethod
    def open(cls, connection: Connection) -> Connection:
        credentials = connection.credentials
        if credentials.method == SparkConnectionMethod.SESSION:
            parameters = credentials.server_side_parameters
            # the driver JVM maps the environment's class archive if there is one (a bare
            # start about 7 s shorter; python_udfs/pipeline/jvm_archive.py). Only before the
            # JVM starts: dbt opens a connection per node, and naming the archive stats
            # pyspark's jars (about 3 ms each time, 0.1 s of a warm build). C1 only when
            # CDC_JIT or the CLI's choice asks for it (a small one-shot run: jit_mode.py).
            if not _jvm_started():
                parameters["spark.driver.extraJavaOptions"] = with_jit(
                    with_archive(parameters.get("spark.driver.extraJavaOptions"))
                )
            # a local session's file:// without a `chmod` process per file (local_fs.py)
            parameters.update(session_parameters(parameters))
        connection = super().open(connection)
        if credentials.method == SparkConnectionMethod.SESSION:
            ensure_udfs(credentials.server_side_parameters)
            # the same dict object: the codegen fit changes it between statements
            connection.handle = caching_session_handle(credentials.server_side_parameters)
        return connection
