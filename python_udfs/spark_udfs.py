"""Spark registration of the project's Python UDFs (vectorized: Arrow batches via pandas).

Each UDF is a thin wrapper over a pure function in :mod:`python_udfs.decoders`. They are
registered as temporary functions, so models that call them must be tables, incremental or
ephemeral (Spark refuses views over temporary functions).

=========================  ==============================================================
SQL function               returns
=========================  ==============================================================
``cdc_decode_base64(s)``   ``struct<value_bytes binary, value_text string, error string>``
``cdc_decode_ddl_meta(s)`` ``struct<decoded_json string, error string>``
``cdc_decode_dts_avro(s)`` ``struct<decoded_json string, error string>``
=========================  ==============================================================

Format ``debezium`` adds two image-level UDFs (a map in, a map out: Spark cannot call Python
UDFs inside the lambdas of ``transform_values``): ``cdc_decode_hbase_image(image, types)``
returns ``struct<image map<string,string>, column_types map<string,string>, error string>``
and ``cdc_decode_debezium_decimals(image, decimal_columns)`` returns
``struct<image map<string,string>, error string>``.

Format ``dts_avro`` adds ``cdc_decode_dts_avro(base64_text)``: a binary DTS Avro record (as
landed: Base64 text) -> a JSON document of canonical text values, or null and the reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from .decoders.base64_values import decode_base64
from .decoders.ddl_meta import decode_ddl_meta_json
from .decoders.debezium_values import decode_decimal_image
from .decoders.dts_avro import decode_dts_base64
from .decoders.hbase_values import decode_hbase_image

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

BASE64_RESULT = "struct<value_bytes: binary, value_text: string, error: string>"
DDL_META_RESULT = "struct<decoded_json: string, error: string>"
HBASE_IMAGE_RESULT = "struct<image: map<string, string>, column_types: map<string, string>, error: string>"
DECIMAL_IMAGE_RESULT = "struct<image: map<string, string>, error: string>"
DTS_AVRO_RESULT = "struct<decoded_json: string, error: string>"

# The names dbt models use; the docs (docs/udfs.md) list the same.
UDF_NAMES = (
    "cdc_decode_base64",
    "cdc_decode_ddl_meta",
    "cdc_decode_hbase_image",
    "cdc_decode_debezium_decimals",
    "cdc_decode_dts_avro",
)


def base64_batch(values: pd.Series) -> pd.DataFrame:
    decoded = [decode_base64(value) for value in values]
    return pd.DataFrame(decoded, columns=["value_bytes", "value_text", "error"], dtype=object)


def ddl_meta_batch(values: pd.Series) -> pd.DataFrame:
    decoded = [decode_ddl_meta_json(value) for value in values]
    return pd.DataFrame(decoded, columns=["decoded_json", "error"], dtype=object)


def dts_avro_batch(values: pd.Series) -> pd.DataFrame:
    decoded = [decode_dts_base64(value) for value in values]
    return pd.DataFrame(decoded, columns=["decoded_json", "error"], dtype=object)


def _none_for_nan(values: pd.Series) -> pd.Series:
    return values.astype(object).where(values.notna(), None)


def _as_dict(value) -> dict | None:
    """A Spark map as it arrives in a pandas UDF (dict, or list of pairs) → dict or None."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    return dict(value)


def hbase_image_batch(images: pd.Series, declared_types: pd.Series) -> pd.DataFrame:
    decoded = [
        decode_hbase_image(_as_dict(image), _as_dict(types))
        for image, types in zip(images, declared_types)
    ]
    return pd.DataFrame(decoded, columns=["image", "column_types", "error"], dtype=object)


def decimal_image_batch(images: pd.Series, decimal_columns: pd.Series) -> pd.DataFrame:
    decoded = [
        decode_decimal_image(_as_dict(image), _as_dict(columns))
        for image, columns in zip(images, decimal_columns)
    ]
    return pd.DataFrame(decoded, columns=["image", "error"], dtype=object)


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

    @pandas_udf(HBASE_IMAGE_RESULT)  # type: ignore[call-overload]
    def cdc_decode_hbase_image(images: pd.Series, declared_types: pd.Series) -> pd.DataFrame:
        return hbase_image_batch(images, declared_types)

    @pandas_udf(DECIMAL_IMAGE_RESULT)  # type: ignore[call-overload]
    def cdc_decode_debezium_decimals(images: pd.Series, decimal_columns: pd.Series) -> pd.DataFrame:
        return decimal_image_batch(images, decimal_columns)

    spark.udf.register("cdc_decode_hbase_image", cdc_decode_hbase_image)
    spark.udf.register("cdc_decode_debezium_decimals", cdc_decode_debezium_decimals)

    @pandas_udf(DTS_AVRO_RESULT)  # type: ignore[call-overload]
    def cdc_decode_dts_avro(values: pd.Series) -> pd.DataFrame:
        return dts_avro_batch(_none_for_nan(values))

    spark.udf.register("cdc_decode_dts_avro", cdc_decode_dts_avro)
    return UDF_NAMES
