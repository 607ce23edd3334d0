"""dbt adapter ``spark_cdc``: dbt-spark plus this project's Python UDFs.

Stock dbt-spark cannot register Python UDFs. This plugin subclasses it under its own type name
and, whenever a ``method: session`` connection opens, registers the UDFs of
:mod:`python_udfs.spark_udfs` once per Spark session. Every macro of dbt-spark stays
available (``dependencies=["spark"]``), so models are plain dbt-spark SQL.
"""

from dbt.adapters.base import AdapterPlugin
from dbt.adapters.spark_cdc.connections import SparkCdcConnectionManager, SparkCdcCredentials
from dbt.adapters.spark_cdc.impl import SparkCdcAdapter
from dbt.include import spark_cdc

Plugin = AdapterPlugin(
    adapter=SparkCdcAdapter,  # type: ignore[arg-type]
    credentials=SparkCdcCredentials,
    include_path=spark_cdc.PACKAGE_PATH,
    dependencies=["spark"],
)

__all__ = ["Plugin", "SparkCdcAdapter", "SparkCdcConnectionManager", "SparkCdcCredentials"]
