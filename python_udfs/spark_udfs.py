"""Spark registration of the project's Python UDFs (vectorized: Arrow batches).

Text-in UDFs are Arrow UDFs (``pyarrow.Array`` in and out, no pandas in between: the
conversion of object columns through pandas cost more than the decoding itself); the two
image-level UDFs take Spark maps and stay pandas UDFs.

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

import binascii
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import pandas as pd
import pyarrow as pa

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


def _text_values(values: pa.Array | Iterable[str | None]) -> list[str | None]:
    return values.to_pylist() if isinstance(values, (pa.Array, pa.ChunkedArray)) else list(values)


def _decoded_struct(
    decode: Callable[[str | None], tuple], values, names: list[str]
) -> pa.StructArray:
    """Apply a pure ``decode(text) -> (json, error)`` to a batch; a struct array of strings."""
    columns = list(zip(*(decode(value) for value in _text_values(values)))) or [()] * len(names)
    return pa.StructArray.from_arrays([pa.array(c, pa.string()) for c in columns], names=names)


def _utf8_or_none(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def base64_batch(values) -> pa.StructArray:
    """Base64 texts -> ``struct<value_bytes, value_text, error>`` (see ``decode_base64``).

    Fast path for the common case (standard, padded Base64 whose bytes are all UTF-8): one
    ``a2b_base64`` per value and one UTF-8 validation for the whole batch (Arrow's cast);
    anything else goes through ``decode_base64`` (URL-safe alphabet, no padding, errors).
    """
    raw_values: list[bytes | None] = []
    errors: list[str | None] = []
    for value in _text_values(values):
        if value is None:
            raw_values.append(None)
            errors.append(None)
            continue
        try:
            raw_values.append(binascii.a2b_base64(value, strict_mode=True))
            errors.append(None)
        except (binascii.Error, ValueError):
            raw, _, error = decode_base64(value)
            raw_values.append(raw)
            errors.append(error)
    raw_array = pa.array(raw_values, pa.binary())
    try:
        texts = raw_array.cast(pa.string())  # validates UTF-8 for the whole batch at once
    except pa.ArrowInvalid:  # some value is binary: its text is null, per value
        texts = pa.array(
            [None if raw is None else _utf8_or_none(raw) for raw in raw_values], pa.string()
        )
    return pa.StructArray.from_arrays(
        [raw_array, texts, pa.array(errors, pa.string())],
        names=["value_bytes", "value_text", "error"],
    )


def ddl_meta_batch(values) -> pa.StructArray:
    return _decoded_struct(decode_ddl_meta_json, values, ["decoded_json", "error"])


def dts_avro_batch(values) -> pa.StructArray:
    return _decoded_struct(decode_dts_base64, values, ["decoded_json", "error"])


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
    from pyspark.sql.functions import arrow_udf, pandas_udf

    @arrow_udf(BASE64_RESULT)  # type: ignore[call-overload]
    def cdc_decode_base64(values: pa.Array) -> pa.Array:
        return base64_batch(values)

    @arrow_udf(DDL_META_RESULT)  # type: ignore[call-overload]
    def cdc_decode_ddl_meta(values: pa.Array) -> pa.Array:
        return ddl_meta_batch(values)

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

    @arrow_udf(DTS_AVRO_RESULT)  # type: ignore[call-overload]
    def cdc_decode_dts_avro(values: pa.Array) -> pa.Array:
        return dts_avro_batch(values)

    spark.udf.register("cdc_decode_dts_avro", cdc_decode_dts_avro)
    return UDF_NAMES
