"""Spark registration of the project's Python UDFs (vectorized: Arrow batches via pandas).

Each UDF is a thin wrapper over a pure function in :mod:`python_udfs.decoders`. They are
registered as temporary functions, so models that call them must be tables, incremental or
ephemeral (Spark refuses views over temporary functions).

=========================  ==============================================================
SQL function               returns
=========================  ==============================================================
``cdc_decode_base64(s)``   ``struct<value_bytes binary, value_text string, error string>``
``cdc_decode_ddl_meta(s)`` ``struct<decoded_json string, error string>``
=========================  ==============================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from .decoders.base64_values import decode_base64
from .decoders.ddl_meta import decode_ddl_meta_json

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

BASE64_RESULT = "struct<value_bytes: binary, value_text: string, error: string>"
DDL_META_RESULT = "struct<decoded_json: string, error: string>"

# The names dbt models use; the docs (docs/udfs.md) list the same.
UDF_NAMES = ("cdc_decode_base64", "cdc_decode_ddl_meta")


def base64_batch(values: pd.Series) -> pd.DataFrame:
    decoded = [decode_base64(value) for value in values]
    return pd.DataFrame(decoded, columns=["value_bytes", "value_text", "error"], dtype=object)


def ddl_meta_batch(values: pd.Series) -> pd.DataFrame:
    decoded = [decode_ddl_meta_json(value) for value in values]
    return pd.DataFrame(decoded, columns=["decoded_json", "error"], dtype=object)


def _none_for_nan(values: pd.Series) -> pd.Series:
    return values.astype(object).where(values.notna(), None)


def register_udfs(spark: SparkSession) -> tuple[str, ...]:
    """Register every project UDF in ``spark`` (idempotent) and return their names."""
    from pyspark.sql.functions import pandas_udf

    @pandas_udf(BASE64_RESULT)  # type: ignore[call-overload]
    def cdc_decode_base64(values: pd.Series) -> pd.DataFrame:
        return base64_batch(_none_for_nan(values))

    @pandas_udf(DDL_META_RESULT)  # type: ignore[call-overload]
    def cdc_decode_ddl_meta(values: pd.Series) -> pd.DataFrame:
        return ddl_meta_batch(_none_for_nan(values))

    spark.udf.register("cdc_decode_base64", cdc_decode_base64)
    spark.udf.register("cdc_decode_ddl_meta", cdc_decode_ddl_meta)
    return UDF_NAMES
