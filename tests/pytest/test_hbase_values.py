"""HBase cell decoding (Lindorm change stream, seed 003) and Debezium decimals, without Spark."""

from __future__ import annotations

import base64
import struct

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from python_udfs.decoders.debezium_values import (
    decode_connect_decimal,
    decode_decimal_image,
    decode_variable_scale_decimal,
    scaled_text,
)
from python_udfs.decoders.hbase_values import (
    decode_hbase_image,
    decode_hbase_value,
    java_float_text,
)
from python_udfs.spark_udfs import UDF_NAMES, decimal_image_batch, hbase_image_batch


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


# --- HBase Bytes.toBytes encodings -------------------------------------------------------

def test_seed_003_hbase_put_decodes_to_text():
    # Put(Bytes.toBytes("user1")).addColumn("f", "name", Bytes.toBytes("lucky"))
    image, types, error = decode_hbase_image({"ROW": "dXNlcjE=", "f_name": "bHVja3k="})
    assert error is None
    assert image == {"ROW": "user1", "f_name": "lucky"}
    assert types == {"ROW": "string", "f_name": "string"}


@pytest.mark.parametrize(
    ("declared", "raw", "text", "canonical"),
    [
        ("long", struct.pack(">q", -42), "-42", "bigint"),
        ("long", struct.pack(">q", 2**63 - 1), "9223372036854775807", "bigint"),
        ("int", struct.pack(">i", 123456), "123456", "int"),
        ("short", struct.pack(">h", -7), "-7", "smallint"),
        ("double", struct.pack(">d", 3.14), "3.14", "double"),
        ("double", struct.pack(">d", float("inf")), "Infinity", "double"),
        ("float", struct.pack(">f", 3.14), "3.14", "float"),
        ("float", struct.pack(">f", 1.0), "1.0", "float"),
        ("boolean", b"\xff", "true", "boolean"),
        ("boolean", b"\x00", "false", "boolean"),
        ("bigdecimal", struct.pack(">i", 2) + (-12345).to_bytes(2, "big", signed=True), "-123.45", "string"),
        ("string", "中文".encode(), "中文", "string"),
        ("BIGINT", struct.pack(">q", 5), "5", "bigint"),  # SQL spelling accepted
    ],
)
def test_typed_decoding(declared, raw, text, canonical):
    assert decode_hbase_value(b64(raw), declared) == (text, canonical, None)


def test_binary_cells_stay_base64():
    assert decode_hbase_value("/w==") == ("/w==", "binary", None)  # not UTF-8
    assert decode_hbase_value("dXNlcjE=", "binary") == ("dXNlcjE=", "binary", None)


def test_null_cell_stays_null_with_its_type():
    assert decode_hbase_value(None, "long") == (None, "bigint", None)
    assert decode_hbase_image(None) == (None, None, None)


@pytest.mark.parametrize(
    ("value", "declared", "error"),
    [
        ("a", None, "invalid_base64"),
        (b64(b"abc"), "long", "hbase_value_length"),
        (b64(b"\x00\x01"), "boolean", "hbase_value_length"),
        (b64(b"abcd"), "uuid", "hbase_unknown_type"),
    ],
)
def test_bad_input_is_an_error_value(value, declared, error):
    text, canonical, message = decode_hbase_value(value, declared)
    assert text is None and canonical is None and message.startswith(error)


def test_image_error_names_the_column():
    image, types, error = decode_hbase_image({"ROW": "dXNlcjE=", "f_age": b64(b"abc")}, {"f_age": "long"})
    assert image is None and types is None
    assert error == "hbase_value_length: long needs 8 bytes, got 3 (column f_age)"


@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_long_round_trip(number):
    assert decode_hbase_value(b64(struct.pack(">q", number)), "long")[0] == str(number)


@given(st.floats(allow_nan=False, width=32))
def test_float_text_reads_back_as_the_same_float(number):
    text = java_float_text(number)
    assert struct.pack(">f", float(text)) == struct.pack(">f", number)


@given(st.floats(allow_nan=False))
def test_double_text_reads_back_as_the_same_double(number):
    text, _, _ = decode_hbase_value(b64(struct.pack(">d", number)), "double")
    assert float(text) == number


# --- Debezium decimals ---------------------------------------------------------------

@pytest.mark.parametrize(
    ("value", "scale", "text"),
    [
        ("AQ==", 0, "1"),            # SeaTunnel Oracle F2 {"scale":0,"value":"AQ=="}
        ("MDk=", 2, "123.45"),       # 12345
        ("z8c=", 2, "-123.45"),      # -12345 (two's complement)
        ("/w==", 3, "-0.001"),
        ("AA==", 2, "0.00"),
        ("12345.110", 3, "12345.110"),               # JSON number text kept exact
        ("12345.11", 3, "12345.110"),                # written with the schema's scale
        ("2222222222222222300000001111.123456789", 10, "2222222222222222300000001111.1234567890"),
        ("1.2345678987654322E32", 3, "123456789876543220000000000000000.000"),
        (None, 2, None),
    ],
)
def test_connect_decimal(value, scale, text):
    assert decode_connect_decimal(value, scale) == (text, None)


def test_connect_decimal_beyond_38_digits_is_exact():
    unscaled = -(10**60) + 7
    raw = unscaled.to_bytes(26, "big", signed=True)
    assert decode_connect_decimal(b64(raw), "30")[0] == scaled_text(unscaled, 30)
    assert scaled_text(unscaled, 30).startswith("-999999999999999999999999999999.")


@given(st.integers(min_value=-(10**40), max_value=10**40), st.integers(min_value=0, max_value=20))
def test_connect_decimal_round_trip(unscaled, scale):
    length = max(1, (unscaled.bit_length() + 8) // 8)
    text, error = decode_connect_decimal(b64(unscaled.to_bytes(length, "big", signed=True)), scale)
    assert error is None
    digits = text.replace("-", "").replace(".", "")
    assert int(digits) == abs(unscaled) and text.startswith("-") == (unscaled < 0)
    assert (len(text.split(".")[1]) if "." in text else 0) == scale


def test_variable_scale_decimal():
    assert decode_variable_scale_decimal('{"scale":0,"value":"AQ=="}') == ("1", None)
    assert decode_variable_scale_decimal('{"scale":3,"value":"MDk="}') == ("12.345", None)
    assert decode_variable_scale_decimal('{"scale":-2,"value":"Aw=="}') == ("300", None)
    assert decode_variable_scale_decimal('{"scale":0,"value":null}') == (None, None)
    assert decode_variable_scale_decimal("42.5") == ("42.5", None)
    assert decode_variable_scale_decimal("[1]")[1].startswith("invalid_decimal")


def test_decimal_image_converts_only_decimal_columns():
    image, error = decode_decimal_image(
        {"id": "1", "price": "MDk=", "n": '{"scale":1,"value":"MDk="}', "gone": None},
        {"price": "2", "n": "variable", "gone": "2", "absent": "1"},
    )
    assert error is None
    assert image == {"id": "1", "price": "123.45", "n": "1234.5", "gone": None}


def test_variable_scale_struct_string_is_always_base64():
    # the bytes d7 6d f8 (unscaled -2658824) encode to "1234": inside the struct a JSON string
    assert b64(bytes([0xD7, 0x6D, 0xF8])) == "1234"
    assert decode_variable_scale_decimal('{"scale":0,"value":"1234"}') == ("-2658824", None)
    assert decode_variable_scale_decimal('{"scale":1,"value":1234}') == ("1234.0", None)


def test_decimal_image_error_names_the_column():
    image, error = decode_decimal_image({"price": "not base64!"}, {"price": "2"})
    assert image is None and error.startswith("invalid_decimal") and error.endswith("(column price)")


# --- the Spark UDF batch wrappers (pandas in, pandas out) -----------------------------

def test_udf_batches():
    hbase = hbase_image_batch(
        pd.Series([{"ROW": "dXNlcjE="}, None, [("f_n", b64(struct.pack(">i", 9)))]], dtype=object),
        pd.Series([{}, None, {"f_n": "int"}], dtype=object),
    )
    assert hbase["image"].tolist() == [{"ROW": "user1"}, None, {"f_n": "9"}]
    assert hbase["column_types"].tolist() == [{"ROW": "string"}, None, {"f_n": "int"}]
    decimals = decimal_image_batch(
        pd.Series([{"p": "MDk="}, None], dtype=object), pd.Series([{"p": "2"}, {}], dtype=object)
    )
    assert decimals["image"].tolist() == [{"p": "123.45"}, None]
    assert {"cdc_decode_hbase_image", "cdc_decode_debezium_decimals"} <= set(UDF_NAMES)


def test_decimals_beyond_any_column_are_errors_not_unbounded_text():
    # a fuzzed 4,000-byte value or `1e999999999` would cost memory and time without bound
    text, error = decode_connect_decimal(b64(b"\x7f" * 4000), 2)
    assert text is None and "more digits than a decimal holds" in error
    text, error = decode_connect_decimal(b64(b"\x01"), 10**6)
    assert text is None and "more digits than a decimal holds" in error
    text, error = decode_variable_scale_decimal("1e999999999")
    assert text is None and "digits" in error
    assert decode_connect_decimal("1e30", 2) == ("1000000000000000000000000000000.00", None)
    text, kind, error = decode_hbase_value(b64(struct.pack(">i", 10**6) + b"\x01"), "bigdecimal")
    assert text is None and "more digits than a decimal holds" in error
