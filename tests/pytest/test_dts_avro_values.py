"""DTS Avro without Spark: the schema, fastavro round trips of every value type, the decoder's
canonical text and types, bad bytes, the landing layouts and the bundled samples."""

from __future__ import annotations

import base64
import io
import json
import math

import fastavro
import pytest

from python_udfs.decoders import dts_avro
from python_udfs.decoders.dts_avro import (
    datum_value,
    decode_dts_base64,
    decode_dts_record,
    encode_readable,
    encode_record,
    read_record,
    record_schema,
)
from python_udfs.pipeline.landing import message_files, read_file_messages, read_framed_messages
from python_udfs.spark_udfs import dts_avro_batch

from .dts_avro_samples import SAMPLES_DIR, sample_files

NS = "com.alibaba.dts.formats.avro."


def record(images, fields=None, *, operation="INSERT", source="MySQL", before=None, **extra):
    names = [f"c{i}" for i in range(len(images))] if images is not None else []
    readable = {
        "id": 7, "sourceTimestamp": 1700000000, "operation": operation, "objectName": "db.t",
        "source": {"sourceType": source, "version": "x"},
        "fields": fields if fields is not None else [[n, 253] for n in names],
        "afterImages": images, "beforeImages": before, **extra,
    }
    return readable


def decoded(readable) -> dict:
    text, error = decode_dts_record(encode_readable(readable))
    assert error is None
    return json.loads(text)


def one(value, type_number=253, source="MySQL"):
    """Canonical (text, type) of one value through encode -> bytes -> decode."""
    doc = decoded(record([value], [["v", type_number]], source=source))
    assert doc["valueError"] is None, doc["valueError"]
    return doc["after"].get("v", "<absent>"), doc["columnTypes"]["v"]


# --- the schema ------------------------------------------------------------------------------

def test_schema_is_the_documented_record_layout():
    schema = json.loads(dts_avro.SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema["namespace"] == "com.alibaba.dts.formats.avro" and schema["name"] == "Record"
    assert [f["name"] for f in schema["fields"]] == [
        "version", "id", "sourceTimestamp", "sourcePosition", "safeSourcePosition", "sourceTxid", "source",
        "operation", "objectName", "processTimestamps", "tags", "fields", "beforeImages", "afterImages", "bornTimestamp",
    ]
    by_name = {f["name"]: f for f in schema["fields"]}
    assert by_name["operation"]["type"]["symbols"] == [
        "INSERT", "UPDATE", "DELETE", "DDL", "BEGIN", "COMMIT", "ROLLBACK", "ABORT", "HEARTBEAT", "CHECKPOINT",
        "COMMAND", "FILL", "FINISH", "CONTROL", "RDB", "NOOP", "INIT",
    ]
    assert [f["name"] for f in by_name["source"]["type"]["fields"]] == ["sourceType", "version"]
    assert by_name["fields"]["type"][:2] == ["null", "string"]
    assert [f["name"] for f in by_name["fields"]["type"][2]["items"]["fields"]] == ["name", "dataTypeNumber"]
    # the union of image values, in wire order (the branch index is what is written)
    before_items = by_name["beforeImages"]["type"][2]["items"]
    assert ["null", *[t["name"] for t in before_items[1:]]] == by_name["afterImages"]["type"][2]["items"] == [
        "null", "Integer", "Character", "Decimal", "Float", "Timestamp", "DateTime", "TimestampWithTimeZone",
        "BinaryGeometry", "TextGeometry", "BinaryObject", "TextObject", "EmptyObject",
    ]
    assert before_items[-1]["symbols"] == ["NULL", "NONE"]


def test_wire_bytes_are_avro_binary_encoding():
    """A minimal record written by hand from the Avro spec (zig-zag varints, union indexes)."""
    def long(n):
        n = (n << 1) ^ (n >> 63)
        out = bytearray()
        while n > 0x7F:
            out.append((n & 0x7F) | 0x80)
            n >>= 7
        return bytes(out + bytes([n]))

    def string(s):
        return long(len(s.encode())) + s.encode()

    by_hand = (
        long(1) + long(42) + long(1700000000) + string("p") + string("") + string("")
        + long(0) + string("8.0")                    # source: MySQL, version
        + long(8)                                    # operation HEARTBEAT
        + long(0) + long(0)                          # objectName null, processTimestamps null
        + long(0)                                    # tags: empty map
        + long(0) + long(0) + long(0)                # fields, beforeImages, afterImages null
        + long(0)                                    # bornTimestamp
    )
    datum = dts_avro.datum_from_readable({"id": 42, "sourceTimestamp": 1700000000, "operation": "HEARTBEAT",
                                          "sourcePosition": "p", "source": {"sourceType": "MySQL", "version": "8.0"}})
    assert encode_record(datum) == by_hand
    assert read_record(by_hand)["operation"] == "HEARTBEAT"


# --- round trip of every value type through fastavro -------------------------------------------

EVERY_VALUE = [
    None,
    "NULL",
    "NONE",
    {"Integer": {"precision": 20, "value": "18446744073709551615"}},
    {"Character": {"charset": "gbk", "text": "中文"}},
    {"Decimal": {"value": "-0.000123", "precision": 38, "scale": 6}},
    {"Float": {"value": 0.1, "precision": 22, "scale": 0}},
    {"Timestamp": {"timestamp": -1, "millis": 999999}},
    {"DateTime": {"year": 2024, "month": 2, "day": 29, "hour": 23, "minute": 59, "second": 59, "millis": 1}},
    {"TimestampWithTimeZone": {"value": {"year": 2024, "month": 1, "day": 1, "hour": 8, "minute": 0, "second": 0}, "timezone": "+08:00"}},
    {"BinaryGeometry": {"type": "POINT", "hex": "0101000000000000000000f03f0000000000000040"}},
    {"TextGeometry": {"type": "POINT", "value": "POINT(1 2)"}},
    {"BinaryObject": {"type": "BLOB", "hex": "00ff10"}},
    {"TextObject": {"type": "JSON", "value": '{"a": [1, 2]}'}},
]


@pytest.mark.parametrize("value", EVERY_VALUE, ids=lambda v: v if isinstance(v, str) or v is None else next(iter(v)))
def test_every_value_type_round_trips_through_fastavro(value):
    datum = dts_avro.datum_from_readable(record([value], before=[value], operation="UPDATE"))
    data = encode_record(datum)
    back = read_record(data)
    expected = datum_value(value)
    if isinstance(expected, str):                       # EmptyObject comes back with its name
        expected = (NS + "EmptyObject", expected)
    assert back["afterImages"] == [expected] and back["beforeImages"] == [expected]
    # fastavro's own generic reader agrees, and writing what it read gives the same bytes
    plain = fastavro.schemaless_reader(io.BytesIO(data), record_schema(), None, return_named_type=True)
    assert plain == back
    assert encode_record({**back, "afterImages": [_writable(v) for v in back["afterImages"]],
                          "beforeImages": [_writable(v) for v in back["beforeImages"]]}) == data


def _writable(value):
    return value[1] if isinstance(value, tuple) and value[0].endswith("EmptyObject") else value


# --- canonical text of each value type ---------------------------------------------------------

def test_null_none_and_empty_object():
    doc = decoded(record([None, "NULL", "NONE", {"Integer": {"precision": 3, "value": "1"}}]))
    assert doc["after"] == {"c0": None, "c1": None, "c3": "1"}      # NONE: absent, not null
    assert "c2" not in doc["after"] and doc["columnTypes"]["c2"] == "string"


def test_integer_keeps_every_digit():
    assert one({"Integer": {"precision": 20, "value": "18446744073709551615"}}, 8) == ("18446744073709551615", "decimal(20,0)")
    assert one({"Integer": {"precision": 4, "value": "-128"}}, 1) == ("-128", "smallint")
    assert one({"Integer": {"precision": 11, "value": "+42"}}, 3) == ("42", "bigint")
    assert one({"Integer": {"precision": 10, "value": "7"}}, 3, source="Oracle") == ("7", "bigint")
    assert one({"Integer": {"precision": 30, "value": "7"}}, 0, source="Oracle") == ("7", "decimal(30,0)")


@pytest.mark.parametrize(("charset", "text"), [
    ("utf8mb4", "emoji 😀 Zoë"), ("utf8", "Grüße"), ("latin1", "café €"), ("gbk", "中文字符"), ("gb18030", "𠀀中"),
    ("big5", "繁體"), ("sjis", "日本語"), ("euckr", "한국어"), ("ucs2", "Ωmega"), ("utf16le", "le"),
    ("AL32UTF8", "Oracle ü"), ("ZHS16GBK", "汉字"), ("koi8r", "Привет"),
])
def test_character_is_decoded_with_its_charset(charset, text):
    assert one({"Character": {"charset": charset, "text": text}}) == (text, "string")


def test_character_binary_or_undecodable_stays_base64():
    assert one({"Character": {"charset": "binary", "hex": "00ff"}}) == ("AP8=", "binary")
    assert one({"Character": {"charset": "utf8mb4", "hex": "c328"}}) == ("wyg=", "binary")       # not UTF-8
    assert one({"Character": {"charset": "no-such-charset", "hex": "41"}}) == ("QQ==", "binary")


@pytest.mark.parametrize(("value", "precision", "scale", "text", "kind"), [
    ("1.5", 10, 2, "1.50", "decimal(10,2)"),
    ("00123", 5, 0, "123", "decimal(5,0)"),
    ("-0.000123", 38, 6, "-0.000123", "decimal(38,6)"),
    ("12345678901234567890123456789012.345678", 38, 6, "12345678901234567890123456789012.345678", "decimal(38,6)"),
    ("1E+3", 10, 2, "1000.00", "decimal(10,2)"),
    ("0.1234567", 10, 2, "0.1234567", "decimal(10,2)"),          # more digits than the scale: never rounded
    ("123456789012345678901234567890123456789012.5", 65, 1, "123456789012345678901234567890123456789012.5", "string"),
    ("NaN", 0, 0, "NaN", "string"),
])
def test_decimal_is_exact_with_its_precision_and_scale(value, precision, scale, text, kind):
    assert one({"Decimal": {"value": value, "precision": precision, "scale": scale}}, 246) == (text, kind)


def test_float_shortest_round_trip_text():
    assert one({"Float": {"value": 0.1, "precision": 0, "scale": 0}}, 5) == ("0.1", "double")
    assert one({"Float": {"value": 3.140000104904175, "precision": 0, "scale": 0}}, 4) == ("3.140000104904175", "float")
    text, _ = one({"Float": {"value": 1.7976931348623157e308, "precision": 0, "scale": 0}}, 5)
    assert float(text) == 1.7976931348623157e308
    assert one({"Float": {"value": math.inf, "precision": 0, "scale": 0}}, 5, source="PostgreSQL") == ("Infinity", "double")


def test_timestamps_are_utc_with_microseconds():
    assert one({"Timestamp": {"timestamp": 1700000000, "millis": 123456}}, 7) == ("2023-11-14 22:13:20.123456", "timestamp")
    assert one({"Timestamp": {"timestamp": -1, "millis": 999999}}, 7) == ("1969-12-31 23:59:59.999999", "timestamp")
    assert one({"Timestamp": {"timestamp": 0, "millis": 0}}, 17) == ("1970-01-01 00:00:00.000000", "timestamp")


@pytest.mark.parametrize(("parts", "type_number", "text", "kind"), [
    ({"year": 2024, "month": 2, "day": 29, "hour": 23, "minute": 59, "second": 59, "millis": 1}, 12, "2024-02-29 23:59:59.000001", "timestamp"),
    ({"year": 2024, "month": 2, "day": 29}, 10, "2024-02-29", "date"),
    ({"year": 0, "month": 0, "day": 0, "hour": 0, "minute": 0, "second": 0}, 12, "0000-00-00 00:00:00.000000", "timestamp"),
    ({"hour": 838, "minute": 59, "second": 59}, 11, "838:59:59.000000", "string"),
    ({"hour": -1, "minute": -2, "second": -3, "millis": -4}, 19, "-01:02:03.000004", "string"),
    ({"year": 1999}, 13, "1999", "int"),
])
def test_datetime_by_its_parts(parts, type_number, text, kind):
    assert one({"DateTime": parts}, type_number) == (text, kind)
    assert one({"DateTime": parts}, 0, source="PostgreSQL") == (text, kind)   # the value's own type


@pytest.mark.parametrize(("zone", "utc"), [
    ("+08:00", "2024-01-01 00:00:00.000250"), ("-0530", "2024-01-01 13:30:00.000250"), ("GMT+8", "2024-01-01 00:00:00.000250"),
    ("UTC", "2024-01-01 08:00:00.000250"), ("Z", "2024-01-01 08:00:00.000250"),
    ("Asia/Shanghai", "2024-01-01 00:00:00.000250"), ("America/New_York", "2024-01-01 13:00:00.000250"),
])
def test_timestamp_with_time_zone_is_converted_to_utc(zone, utc):
    value = {"TimestampWithTimeZone": {"value": {"year": 2024, "month": 1, "day": 1, "hour": 8, "minute": 0, "second": 0, "millis": 250}, "timezone": zone}}
    assert one(value, 0, source="Oracle") == (utc, "timestamp")


def test_unknown_time_zone_keeps_the_local_text_and_zone():
    value = {"TimestampWithTimeZone": {"value": {"year": 2024, "month": 1, "day": 1, "hour": 8, "minute": 0, "second": 0}, "timezone": "Mars/Olympus"}}
    assert one(value, 0, source="Oracle") == ("2024-01-01 08:00:00.000000 Mars/Olympus", "string")
    time_tz = {"TimestampWithTimeZone": {"value": {"hour": 8, "minute": 0, "second": 0}, "timezone": "+02:00"}}
    assert one(time_tz, 0, source="PostgreSQL") == ("08:00:00.000000 +02:00", "string")


def test_geometries_and_objects():
    wkb = "0101000000000000000000f03f0000000000000040"
    assert one({"BinaryGeometry": {"type": "POINT", "hex": wkb}}, 255) == (base64.b64encode(bytes.fromhex(wkb)).decode(), "binary")
    assert one({"TextGeometry": {"type": "POINT", "value": "POINT(1 2)"}}, 255) == ("POINT(1 2)", "string")
    assert one({"BinaryObject": {"type": "BLOB", "hex": "00ff10"}}, 252) == ("AP8Q", "binary")
    assert one({"TextObject": {"type": "TEXT", "value": "long text"}}, 252) == ("long text", "string")
    assert one({"TextObject": {"type": "JSON", "value": '{"a":1}'}}, 245) == ('{"a":1}', "string")
    assert one({"TextObject": {"type": "SET", "value": "a,b"}}, 248) == ("a,b", "string")


@pytest.mark.parametrize("value", [
    {"Integer": {"precision": 3, "value": "12a"}},
    {"Timestamp": {"timestamp": 1700000000, "millis": 1_000_000}},
    {"Timestamp": {"timestamp": 10**13, "millis": 0}},
    {"DateTime": {"year": 2024, "month": 13, "day": 1}},
    {"DateTime": {"month": 1}},
    {"Decimal": {"value": "twelve", "precision": 5, "scale": 0}},
    {"TimestampWithTimeZone": {"value": {"year": 2024, "month": 2, "day": 30, "hour": 0, "minute": 0, "second": 0}, "timezone": "+01:00"}},
])
def test_bad_values_are_reported_with_the_column(value):
    doc = decoded(record([value], [["bad", 0]]))
    assert doc["valueError"] and "column bad, afterImages" in doc["valueError"]
    assert doc["after"] is None


def test_field_count_mismatch_is_reported():
    doc = decoded(record([{"Integer": {"precision": 3, "value": "1"}}], [["a", 3], ["b", 3]]))
    assert doc["valueError"].startswith("field_count_mismatch: ")


# --- the record document ----------------------------------------------------------------------

def test_record_document():
    doc = decoded(record(
        [{"Integer": {"precision": 11, "value": "5"}}], [["id", 3]], operation="UPDATE",
        before=[{"Integer": {"precision": 11, "value": "4"}}],
        objectName="d\\u002E1.s.t\\u002Ex", sourceTxid="tx", processTimestamps=[1, 2], bornTimestamp=99,
        tags={"pk_uk_info": '{"PRIMARY":["id"],"uk":["x"]}', "k": "v"}, source="PostgreSQL",
    ))
    assert (doc["databaseName"], doc["schemaName"], doc["tableName"]) == ("d.1", "s", "t.x")
    assert doc["primaryKeys"] == ["id"] and doc["sourceSystem"] == "postgresql" and doc["sourceVersion"] == "x"
    assert doc["before"] == {"id": "4"} and doc["after"] == {"id": "5"}
    assert doc["fields"] == [{"name": "id", "dataTypeNumber": 3}] and doc["processTimestamps"] == [1, 2]
    assert doc["id"] == 7 and doc["sourceTimestamp"] == 1700000000 and doc["bornTimestamp"] == 99


@pytest.mark.parametrize(("object_name", "source", "parts"), [
    ("shop.orders", "MySQL", ["shop", None, "orders"]),
    ("HR.EMPLOYEES", "Oracle", [None, "HR", "EMPLOYEES"]),
    ("db.dbo.t", "SQLServer", ["db", "dbo", "t"]),
    ("shop", "MySQL", ["shop", None, None]),
    (None, "MySQL", [None, None, None]),
])
def test_object_names(object_name, source, parts):
    assert list(dts_avro.split_object_name(object_name, source)) == parts


def test_ddl_text_is_read_from_the_string_image():
    doc = decoded({"id": 1, "sourceTimestamp": 1, "operation": "DDL", "objectName": "db.t", "afterImages": "ALTER TABLE t ADD c int"})
    assert doc["ddlText"] == "ALTER TABLE t ADD c int" and doc["after"] is None and not doc["hasAfterImages"]


def test_bad_primary_key_tag_means_no_key():
    assert dts_avro.primary_keys({"pk_uk_info": "{not json"}) == []
    assert dts_avro.primary_keys({"pk_uk_info": '{"PRIMARY": "id"}'}) == []
    assert dts_avro.primary_keys({"pk_uk_info": '{"PRIMARY": ["a", "b"]}'}) == ["a", "b"]


# --- bad bytes never raise --------------------------------------------------------------------

# bornTimestamp is a multi-byte varint: cutting the last byte leaves no valid record of either layout
GOOD = encode_readable(record([{"Integer": {"precision": 3, "value": "1"}}], bornTimestamp=1700000000123))
# the same record in the older layout without bornTimestamp (a valid record, see below)
GOOD_LEGACY_LENGTH = len(encode_readable(record([{"Integer": {"precision": 3, "value": "1"}}]))) - 1


@pytest.mark.parametrize("data", [b"", b"\x00", GOOD[:-1], GOOD + b"\x00", b"\xff" * 64, b'{"id": 1}', GOOD[:10]])
def test_bad_bytes_give_an_error_not_an_exception(data):
    text, error = decode_dts_record(data)
    assert text is None and error.startswith("not_dts_avro: ")


def test_every_prefix_and_every_flipped_byte_is_handled():
    for cut in range(len(GOOD)):
        text, error = decode_dts_record(GOOD[:cut])
        if cut == GOOD_LEGACY_LENGTH:
            # cut right before bornTimestamp: exactly a record of the older layout
            assert error is None and json.loads(text)["bornTimestamp"] is None
        else:
            assert error is not None, cut
    for index in range(len(GOOD)):
        mutated = bytearray(GOOD)
        mutated[index] ^= 0xFF
        text, error = decode_dts_record(bytes(mutated))
        assert (text is None) != (error is None)


def test_base64_entry_point_and_the_arrow_batch():
    import pyarrow as pa

    good = base64.b64encode(GOOD).decode()
    assert decode_dts_base64(good)[1] is None
    assert decode_dts_base64("not base64!")[1].startswith("not_dts_avro: invalid_base64")
    assert decode_dts_base64(None) == (None, None)
    rows = dts_avro_batch(pa.array([good, "%%%", None], pa.string())).to_pylist()
    assert json.loads(rows[0]["decoded_json"])["after"] == {"c0": "1"}
    assert rows[1]["decoded_json"] is None and rows[1]["error"].startswith("not_dts_avro")
    assert rows[2] == {"decoded_json": None, "error": None}
    assert dts_avro_batch(pa.array([], pa.string())).to_pylist() == []


# --- landing layouts and samples ----------------------------------------------------------------

def test_framed_messages_are_numbered_and_a_cut_frame_is_kept(tmp_path):
    a, b = encode_readable(record([None])), encode_readable(record(["NULL"]))
    data = len(a).to_bytes(4, "big") + a + len(b).to_bytes(4, "big") + b
    messages = list(read_framed_messages(data + b"\x00\x00"))
    assert [(m.line_number, base64.b64decode(m.text)) for m in messages] == [(1, a), (2, b), (3, b"\x00\x00")]
    cut = list(read_framed_messages(data[:-3]))
    assert base64.b64decode(cut[-1].text) == b[:-3]
    (tmp_path / "x.dtsavro").write_bytes(data)
    (tmp_path / "y.b64").write_text(base64.b64encode(a).decode() + "\n\n" + base64.b64encode(b).decode() + "\n")
    (tmp_path / "z.bin").write_bytes(data)
    assert [p.name for p in message_files([tmp_path], "dts_avro")] == ["x.dtsavro", "y.b64", "z.bin"]
    assert [p.name for p in message_files([tmp_path], "dataworks")] == []
    lines = read_file_messages(tmp_path / "y.b64", "dts_avro")
    assert [(m.line_number, base64.b64decode(m.text)) for m in lines] == [(1, a), (3, b)]


def test_bundled_samples_are_generated_by_this_script():
    for name, data in sample_files().items():
        assert (SAMPLES_DIR / name).read_bytes() == data, f"regenerate: python -m tests.pytest.dts_avro_samples ({name})"


# --- the older Record layout (no bornTimestamp) -----------------------------------------------

def legacy_schema():
    schema = json.loads(dts_avro.SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema["fields"][-1]["name"] == "bornTimestamp"
    schema["fields"] = schema["fields"][:-1]
    return fastavro.parse_schema(schema)


def test_records_of_the_older_layout_without_born_timestamp_decode():
    readable = record([{"Integer": {"precision": 11, "value": "5"}}, {"Character": {"charset": "utf8", "text": "hé"}}],
                      [["id", 3], ["name", 253]], operation="UPDATE", sourceTxid="tx9",
                      before=[{"Integer": {"precision": 11, "value": "4"}}, None])
    # write the datum with fastavro using the older schema: the bytes a pre-bornTimestamp DTS writes
    datum = fastavro.schemaless_reader(io.BytesIO(encode_readable(readable)), record_schema(), None)
    del datum["bornTimestamp"]
    buffer = io.BytesIO()
    fastavro.schemaless_writer(buffer, legacy_schema(), datum)
    legacy_bytes = buffer.getvalue()
    with pytest.raises(EOFError):   # what used to fail: the current layout reads past the end
        fastavro.schemaless_reader(io.BytesIO(legacy_bytes), record_schema(), None)
    text, error = decode_dts_record(legacy_bytes)
    assert error is None
    doc = json.loads(text)
    assert doc["operation"] == "UPDATE" and doc["sourceTxid"] == "tx9" and doc["bornTimestamp"] is None
    assert doc["before"] == {"id": "4", "name": None} and doc["after"] == {"id": "5", "name": "hé"}
    assert read_record(legacy_bytes)["bornTimestamp"] is None
    # the current layout still reads as before, bornTimestamp included
    assert json.loads(decode_dts_record(encode_readable({**readable, "bornTimestamp": 42}))[0])["bornTimestamp"] == 42
    # an older-layout record with a byte more or less is still rejected
    assert decode_dts_record(legacy_bytes[:-1])[1] is not None
    assert decode_dts_record(legacy_bytes + b"\x02\x02")[1] is not None
