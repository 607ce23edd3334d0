from dbt.adapters.spark.impl import SparkAdapter
from dbt.adapters.spark_cdc.connections import SparkCdcConnectionManager


class SparkCdcAdapter(SparkAdapter):
    """dbt-spark with UDF registration on connect; nothing else changes."""

    ConnectionManager = SparkCdcConnectionManager

    @classmethod
    def type(cls) -> str:
        return "spark_cdc"

    @classmethod
    def get_adapter_run_info(cls, config):  # type: ignore[no-untyped-def]
        # dbt derives a module name from the class name ("sparkcdc"); report as dbt-spark.
        return SparkAdapter.get_adapter_run_info.__func__(SparkAdapter, config)  # type: ignore[attr-defined]
