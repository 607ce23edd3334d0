"""Connections that register the project's Python UDFs in the embedded Spark session."""

from __future__ import annotations

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


def ensure_udfs(server_side_parameters: dict[str, str]) -> None:
    """Get (or start) the session the dbt-spark cursor will use and register the UDFs once."""
    from pyspark.sql import SparkSession

    from python_udfs.spark_udfs import register_udfs

    builder = SparkSession.builder.enableHiveSupport()
    for key, value in server_side_parameters.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    if getattr(spark, "_cdc_udfs_registered", False):
        return
    names = register_udfs(spark)
    spark._cdc_udfs_registered = True  # type: ignore[attr-defined]
    logger.debug(f"registered Python UDFs: {', '.join(names)}")


# Spark's generated code, fitted to the size of an invocation's input (adapter method
# cdc_fit_codegen; the settings: python_udfs/pipeline/codegen.py). dbt-spark's session cursor
# applies the profile's server_side_parameters before every statement, so the fit changes that
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


class SparkCdcConnectionManager(SparkConnectionManager):
    TYPE = "spark_cdc"

    @classmethod
    def open(cls, connection: Connection) -> Connection:
        credentials = connection.credentials
        if credentials.method == SparkConnectionMethod.SESSION:
            # the driver JVM maps the environment's class archive if there is one (a bare
            # start about 7 s shorter; python_udfs/pipeline/jvm_archive.py)
            parameters = credentials.server_side_parameters
            parameters["spark.driver.extraJavaOptions"] = with_archive(
                parameters.get("spark.driver.extraJavaOptions")
            )
            # a local session's file:// without a `chmod` process per file (local_fs.py)
            parameters.update(session_parameters(parameters))
        connection = super().open(connection)
        if credentials.method == SparkConnectionMethod.SESSION:
            ensure_udfs(credentials.server_side_parameters)
        return connection
