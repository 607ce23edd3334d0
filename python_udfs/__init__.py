"""Python side of the CDC change-log project.

- :mod:`python_udfs.decoders`: pure decoding functions (Base64, ddlMeta, …), no Spark.
- :mod:`python_udfs.spark_udfs`: their registration as vectorized Spark UDFs.
- :mod:`python_udfs.pipeline`: landing raw files and running dbt in one process.
- ``python_udfs/dbt_plugin``: the ``spark_cdc`` dbt adapter, which registers the UDFs for
  plain ``dbt run`` / ``dbt build`` / ``dbt test``.
"""

__version__ = "0.1.0"
