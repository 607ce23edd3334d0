"""DTS Avro records (Alibaba Cloud DTS, namespace ``com.alibaba.dts.formats.avro``, seed 002).

DTS writes one ``Record`` per Kafka message as schemaless binary Avro (no container file, no
schema registry header). The schema is ``dts_record.avsc`` beside this module, written from
the documented field list. :func:`decode_dts_record` turns the bytes into a JSON document of
canonical text values that the dbt model ``stg_dts_avro__events`` reads with ``from_json``:

``id``, ``version``, ``sourceTimestamp``, ``bornTimestamp``                numbers as JSON numbers
``sourcePosition``, ``safeSourcePosition``, ``sourceTxid``                 text
``sourceType``, ``sourceVersion``, ``operation``                           text (enum symbols)
``objectName`` and its parts ``databaseName``, ``schemaName``, ``tableName``        text (``\\u002E`` unescaped)
``processTimestamps``, ``tags``                                            as given
``primaryKeys``                                                            ``tags.pk_uk_info`` ``PRIMARY``
``fields``                                                                 ``[{name, dataTypeNumber}]``
``before``, ``after``                                                      column -> canonical text or null
``ddlText``                                                                a string image (DDL records)
``columnTypes``                                                            column -> canonical type
``valueError``                                                             why a value could not be converted

Image values are a union; each becomes canonical text (docs/formats/dts_avro.md):

========================  =====================================================  ===============
value                     canonical text                                         canonical type
========================  =====================================================  ===============
null, EmptyObject NULL    SQL null                                               from the field
EmptyObject NONE          the column is left out of the image (no value given)   -
Integer                   the decimal text                                       by type number
Character                 the bytes decoded with their charset; Base64 when      string / binary
                          the charset is ``binary`` or the bytes do not decode
Decimal                   exact text, padded with zeros to ``scale``             decimal(p,s)
Float                     shortest text that reads back as the same double       float / double
Timestamp                 UTC ``yyyy-MM-dd HH:mm:ss.ffffff``                     timestamp
DateTime                  ``yyyy-MM-dd HH:mm:ss.ffffff``, ``yyyy-MM-dd``,        timestamp, date,
                          ``[-]HH:mm:ss.ffffff``, ``yyyy``                       string, int
TimestampWithTimeZone     converted to UTC ``yyyy-MM-dd HH:mm:ss.ffffff``        timestamp
BinaryGeometry/Object     standard Base64 of the bytes                           binary
TextGeometry/Object       the text                                               string
========================  =====================================================  ===============

``Timestamp.millis`` and ``DateTime.millis`` hold microseconds, as the DTS SDKs read them
(six fraction digits; ``DateTime`` nanoseconds = ``millis * 1000``).

Nothing here raises on bad input: :func:`decode_dts_record` returns ``(None, error)`` when the
bytes are not a DTS Avro record, and a document with ``valueError`` when one value is bad.
"""

from __future__ import annotations

import base64
import codecs
import datetime as dt
import io
import json
import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .base64_values import decode_base64
from .hbase_values import java_double_text

SCHEMA_PATH = Path(__file__).with_name("dts_record.avsc")
NAMESPACE = "com.alibaba.dts.formats.avro"

ERROR_NOT_DTS_AVRO = "not_dts_avro"
ERROR_FIELD_COUNT = "field_count_mismatch"
ERROR_VALUE = "undecodable_value"

_EPOCH = dt.datetime(1970, 1, 1)
_MIN_SECONDS = -62135596800  # 0001-01-01 00:00:00 UTC
_MAX_SECONDS = 253402300799  # 9999-12-31 23:59:59 UTC
_INTEGER = re.compile(r"^[+-]?[0-9]+$")

# MySQL column type numbers (the binlog type codes DTS puts in `dataTypeNumber` for MySQL and
# DRDS/PolarDB-X sources) -> canonical type. None: the value's own union branch decides.
# dataTypeNumber does not say signed/unsigned, so integers are widened one step (an unsigned
# value always fits); BIGINT becomes decimal(20,0).
MYSQL_TYPES: dict[int, str | None] = {
    0: None,                # DECIMAL (precision/scale from the Decimal value)
    1: "smallint",          # TINYINT
    2: "int",               # SMALLINT
    3: "bigint",            # INT
    4: "float",             # FLOAT
    5: "double",            # DOUBLE
    6: "string",            # NULL
    7: "timestamp",         # TIMESTAMP
    8: "decimal(20,0)",     # BIGINT
    9: "int",               # MEDIUMINT
    10: "date",             # DATE
    11: "string",           # TIME (Spark has no TIME type)
    12: "timestamp",        # DATETIME
    13: "int",              # YEAR
    14: "date",             # NEWDATE
    15: None,               # VARCHAR (string, or binary for VARBINARY)
    16: "decimal(20,0)",    # BIT (an unsigned number of up to 64 bits)
    17: "timestamp",        # TIMESTAMP2
    18: "timestamp",        # DATETIME2
    19: "string",           # TIME2
    245: "string",          # JSON
    246: None,              # NEWDECIMAL
    247: "string",          # ENUM
    248: "string",          # SET
    249: None,              # TINYBLOB / TINYTEXT
    250: None,              # MEDIUMBLOB / MEDIUMTEXT
    251: None,              # LONGBLOB / LONGTEXT
    252: None,              # BLOB / TEXT
    253: None,              # VARCHAR / VARBINARY
    254: None,              # CHAR / BINARY
    255: None,              # GEOMETRY (binary WKB or text WKT)
}
MYSQL_FAMILY = {"MySQL", "DRDS"}

# Charset names of MySQL, Oracle and PostgreSQL -> Python codecs (others: codecs.lookup).
CHARSETS = {
    "utf8": "utf-8", "utf8mb3": "utf-8", "utf8mb4": "utf-8", "al32utf8": "utf-8",
    "utf-8": "utf-8", "unicode": "utf-8",
    "latin1": "cp1252",  # MySQL's latin1 is Windows-1252
    "ascii": "ascii", "us7ascii": "ascii",
    "ucs2": "utf-16-be", "utf16": "utf-16-be", "al16utf16": "utf-16-be", "utf16le": "utf-16-le",
    "utf32": "utf-32-be",
    "gbk": "gbk", "zhs16gbk": "gbk", "gb2312": "gb2312", "gb18030": "gb18030", "zhs32gb18030": "gb18030",
    "big5": "big5", "zht16big5": "big5", "big5hkscs": "big5hkscs",
    "sjis": "shift_jis", "cp932": "cp932", "ja16sjis": "shift_jis",
    "ujis": "euc_jp", "eucjpms": "euc_jp", "ja16euc": "euc_jp",
    "euckr": "euc_kr", "ko16ksc5601": "euc_kr",
    "latin2": "iso8859_2", "latin5": "iso8859_9", "latin7": "iso8859_13",
    "greek": "iso8859_7", "hebrew": "iso8859_8", "cp1250": "cp1250", "cp1251": "cp1251",
    "cp1256": "cp1256", "cp1257": "cp1257", "cp850": "cp850", "cp852": "cp852", "cp866": "cp866",
    "koi8r": "koi8_r", "koi8u": "koi8_u", "tis620": "tis_620", "macroman": "mac_roman",
    "we8iso8859p1": "iso8859_1", "we8mswin1252": "cp1252", "ee8iso8859p2": "iso8859_2",
    "cl8mswin1251": "cp1251", "sql_ascii": "ascii", "win1252": "cp1252", "win1251": "cp1251",
    "euc_cn": "gb2312", "euc_jp": "euc_jp", "euc_kr": "euc_kr",
}
BINARY_CHARSETS = {"binary", ""}

SOURCE_SYSTEMS = {
    "MySQL": "mysql", "Oracle": "oracle", "SQLServer": "sqlserver", "PostgreSQL": "postgresql",
    "MongoDB": "mongodb", "Redis": "redis", "DB2": "db2", "PPAS": "ppas", "DRDS": "drds",
    "HBASE": "hbase", "HDFS": "hdfs", "FILE": "file", "OTHER": None,
}


class DtsValueError(Exception):
    """A value of an image that cannot be converted (reported, never raised to the caller)."""


@lru_cache(maxsize=1)
def record_schema():
    """The parsed DTS ``Record`` schema (fastavro)."""
    import fastavro

    with open(SCHEMA_PATH, encoding="utf-8") as handle:
        return fastavro.parse_schema(json.load(handle))


def encode_record(record: dict) -> bytes:
    """Schemaless binary Avro of ``record`` (what DTS writes to Kafka). For tests and samples.

    Record values of the images are given as ``(type_name, value)`` pairs, e.g.
    ``("com.alibaba.dts.formats.avro.Integer", {"precision": 11, "value": "7"})``; EmptyObject
    as its symbol ``"NULL"`` or ``"NONE"``.
    """
    import fastavro

    buffer = io.BytesIO()
    fastavro.schemaless_writer(buffer, record_schema(), record)
    return buffer.getvalue()


@lru_cache(maxsize=1)
def legacy_record_schema():
    """The older published ``Record`` layout: the same fields without the trailing
    ``bornTimestamp`` (DTS instances and SDK versions before it was added still write it)."""
    import fastavro

    with open(SCHEMA_PATH, encoding="utf-8") as handle:
        schema = json.load(handle)
    schema["fields"] = [field for field in schema["fields"] if field["name"] != "bornTimestamp"]
    return fastavro.parse_schema(schema)


def _read_exactly(data: bytes, schema) -> dict:
    import fastavro

    stream = io.BytesIO(data)
    record = fastavro.schemaless_reader(stream, schema, None, return_named_type=True)
    if stream.tell() != len(data):
        raise ValueError(f"{len(data) - stream.tell()} bytes after the record")
    return record


def read_record(data: bytes) -> dict:
    """The Avro datum of ``data``; union values of the images as ``(type_name, value)``.

    Reads the current layout first; bytes it does not read exactly are read again with the
    older layout without ``bornTimestamp`` (the record then has ``bornTimestamp`` = None).
    Raises on bytes that are exactly one record of neither layout (trailing bytes included).
    """
    try:
        return _read_exactly(data, record_schema())
    except Exception as current_error:  # noqa: BLE001 - any reader failure: try the older layout
        try:
            record = _read_exactly(data, legacy_record_schema())
        except Exception:  # noqa: BLE001 - report the current layout's failure
            raise current_error from None
        record["bornTimestamp"] = None
        return record


# Sources whose two-part object names are owner.table (the owner is a schema, not a database).
SCHEMA_QUALIFIED = {"Oracle", "DB2"}


def split_object_name(
    object_name: str | None, source_type: str | None = None
) -> tuple[str | None, str | None, str | None]:
    """``db``, ``db.table`` or ``db.schema.table`` -> (database, schema, table); Oracle and DB2
    ``owner.table`` -> (None, owner, table). A dot inside a name is written ``\\u002E``. More
    than three parts: the rest joins into the table."""
    if not object_name:
        return None, None, None
    parts = [part.replace("\\u002E", ".") for part in object_name.split(".")]
    if len(parts) == 1:
        return parts[0], None, None
    if len(parts) == 2:
        if source_type in SCHEMA_QUALIFIED:
            return None, parts[0], parts[1]
        return parts[0], None, parts[1]
    return parts[0], parts[1], ".".join(parts[2:])


def primary_keys(tags: dict | None) -> list[str]:
    """``PRIMARY`` of the ``pk_uk_info`` tag (JSON ``{"PRIMARY": [...], "<uk>": [...]}``)."""
    text = (tags or {}).get("pk_uk_info")
    if not text:
        return []
    try:
        info = json.loads(text)
    except ValueError:
        return []
    keys = info.get("PRIMARY") if isinstance(info, dict) else None
    if not isinstance(keys, list):
        return []
    return [str(k) for k in keys if k is not None]


# -- values ---------------------------------------------------------------------------------

def _fraction(micros: int | None) -> str:
    micros = 0 if micros is None else micros
    if not 0 <= micros <= 999_999:
        raise DtsValueError(f"sub-second part {micros} is not 0..999999 microseconds")
    return f"{micros:06d}"


def epoch_text(seconds: int, micros: int | None) -> str:
    """UTC text of an epoch second + microseconds."""
    if not _MIN_SECONDS <= seconds <= _MAX_SECONDS:
        raise DtsValueError(f"timestamp {seconds} s is outside years 0001..9999")
    moment = _EPOCH + dt.timedelta(seconds=seconds)
    return f"{moment:%Y-%m-%d %H:%M:%S}.{_fraction(micros)}"


def _check(name: str, value: int | None, low: int, high: int) -> int:
    if value is None or not low <= value <= high:
        raise DtsValueError(f"DateTime {name} {value} is not {low}..{high}")
    return value


def datetime_text(parts: dict) -> tuple[str, str]:
    """(text, canonical type) of a DateTime by the parts it has (date-time, date, time, year)."""
    year, month, day, hour = (parts.get(k) for k in ("year", "month", "day", "hour"))
    minute, second, micros = parts.get("minute"), parts.get("second"), parts.get("millis")
    if hour is not None and year is None:
        # a time of day (MySQL TIME may be negative or beyond 24 h: every part carries the sign)
        values = [hour, minute or 0, second or 0, micros or 0]
        negative = any(v < 0 for v in values)
        hour, minute, second, micros = (abs(v) for v in values)
        _check("hour", hour, 0, 9999)
        _check("minute", minute, 0, 59)
        _check("second", second, 0, 59)
        return f"{'-' if negative else ''}{hour:02d}:{minute:02d}:{second:02d}.{_fraction(micros)}", "string"
    if year is None:
        raise DtsValueError("DateTime without year or hour")
    _check("year", year, 0, 9999)
    if month is None:
        return f"{year:04d}", "int"
    _check("month", month, 0, 12)
    if day is None:
        return f"{year:04d}-{month:02d}", "string"
    _check("day", day, 0, 31)
    if hour is None:
        return f"{year:04d}-{month:02d}-{day:02d}", "date"
    _check("hour", hour, 0, 23)
    _check("minute", minute, 0, 59)
    _check("second", second, 0, 60)
    return f"{year:04d}-{month:02d}-{day:02d} {hour:02d}:{minute:02d}:{second:02d}.{_fraction(micros)}", "timestamp"


_OFFSET = re.compile(r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$", re.IGNORECASE)


def parse_time_zone(name: str) -> dt.tzinfo | None:
    """A time zone from an offset (``+08:00``, ``-0530``, ``GMT+8``), ``Z``/``UTC``/``GMT`` or a
    region name (``Asia/Shanghai``); None when it is none of these."""
    text = (name or "").strip()
    if text.upper() in {"Z", "UTC", "GMT", "UT", "+00:00", "-00:00"}:
        return dt.timezone.utc
    match = _OFFSET.match(text)
    if match:
        sign, hours, minutes, seconds = match.groups()
        delta = dt.timedelta(hours=int(hours), minutes=int(minutes or 0), seconds=int(seconds or 0))
        if delta >= dt.timedelta(hours=24):
            return None
        return dt.timezone(-delta if sign == "-" else delta)
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def zoned_text(parts: dict, zone_name: str) -> tuple[str, str]:
    """A TimestampWithTimeZone: the instant in UTC. A time of day keeps its zone as written;
    an unknown zone keeps the local text followed by the zone (nothing is lost)."""
    local, kind = datetime_text(parts)
    if kind != "timestamp":
        return f"{local} {zone_name}".rstrip(), "string"
    zone = parse_time_zone(zone_name)
    if zone is None:
        return f"{local} {zone_name}".rstrip(), "string"
    try:
        moment = dt.datetime(
            parts["year"], parts["month"], parts["day"], parts["hour"], parts["minute"],
            min(parts["second"], 59), parts.get("millis") or 0, tzinfo=zone,
        )
        utc = moment.astimezone(dt.timezone.utc)
    except (ValueError, OverflowError) as error:
        raise DtsValueError(f"TimestampWithTimeZone {local} {zone_name}: {error}") from None
    return f"{utc:%Y-%m-%d %H:%M:%S}.{utc.microsecond:06d}", "timestamp"


def decimal_text(value: str, precision: int, scale: int) -> tuple[str, str]:
    """Exact decimal text, plain notation, padded with zeros to ``scale`` (never rounded)."""
    try:
        number = Decimal(value.strip())
    except (InvalidOperation, AttributeError):
        raise DtsValueError(f"Decimal {value!r} is not a number") from None
    if not number.is_finite():
        return value.strip(), "string"  # PostgreSQL numeric NaN / Infinity
    text = format(number, "f")
    digits = len(text.split(".", 1)[1]) if "." in text else 0
    if 0 < scale <= 1000 and digits < scale:
        text = (text if digits else text + ".") + "0" * (scale - digits)
    kind = f"decimal({precision},{scale})" if 0 < precision <= 38 and 0 <= scale <= precision else "string"
    return text, kind


def character_text(charset: str, raw: bytes) -> tuple[str, str]:
    """Bytes in ``charset`` -> text; Base64 (type binary) for binary or undecodable bytes."""
    name = (charset or "").strip().lower()
    if name not in BINARY_CHARSETS:
        codec = CHARSETS.get(name) or CHARSETS.get(name.replace("-", "").replace("_", ""))
        try:
            return raw.decode(codec or codecs.lookup(name).name), "string"
        except (LookupError, UnicodeDecodeError):
            pass
    return base64.b64encode(raw).decode("ascii"), "binary"


def integer_kind(precision: int) -> str:
    if 0 < precision <= 18:
        return "bigint"
    if 18 < precision <= 38:
        return f"decimal({precision},0)"
    return "string"


def value_text(value) -> tuple[bool, str | None, str | None]:
    """One image value -> (present, canonical text or None, canonical type from the value).

    ``present`` is False for EmptyObject NONE (the column has no value in this image).
    """
    if value is None:
        return True, None, None
    if isinstance(value, str):  # an enum without its name (EmptyObject)
        kind, body = f"{NAMESPACE}.EmptyObject", value
    else:
        kind, body = value
    kind = kind.rsplit(".", 1)[-1]
    if kind == "EmptyObject":
        return body != "NONE", None, None
    if kind == "Integer":
        text = body["value"].strip()
        if not _INTEGER.match(text):
            raise DtsValueError(f"Integer {body['value']!r} is not a whole number")
        return True, text.lstrip("+"), integer_kind(body["precision"])
    if kind == "Character":
        text, canonical = character_text(body["charset"], body["value"])
        return True, text, canonical
    if kind == "Decimal":
        text, canonical = decimal_text(body["value"], body["precision"], body["scale"])
        return True, text, canonical
    if kind == "Float":
        return True, java_double_text(body["value"]), "double"
    if kind == "Timestamp":
        return True, epoch_text(body["timestamp"], body["millis"]), "timestamp"
    if kind == "DateTime":
        text, canonical = datetime_text(body)
        return True, text, canonical
    if kind == "TimestampWithTimeZone":
        text, canonical = zoned_text(body["value"], body["timezone"])
        return True, text, canonical
    if kind in ("BinaryGeometry", "BinaryObject"):
        return True, base64.b64encode(body["value"]).decode("ascii"), "binary"
    if kind in ("TextGeometry", "TextObject"):
        return True, body["value"], "string"
    raise DtsValueError(f"unknown value type {kind}")


def column_type(source_type: str | None, type_number: int | None, from_value: str | None) -> str:
    """Canonical type of a column: MySQL type numbers first, else the value's own type."""
    if source_type in MYSQL_FAMILY and type_number in MYSQL_TYPES:
        known = MYSQL_TYPES[type_number]
        if known is not None:
            return known
    return from_value or "string"


def image_map(
    images, fields: list[dict], source_type: str | None, types: dict[str, str], which: str
) -> dict[str, str | None] | None:
    """A list image -> column -> canonical text (NONE values left out); fills ``types``."""
    if images is None or isinstance(images, str):
        return None
    if len(images) != len(fields):
        raise DtsValueError(f"{ERROR_FIELD_COUNT}: {which} has {len(images)} values for {len(fields)} fields")
    image: dict[str, str | None] = {}
    for field, value in zip(fields, images):
        name = field["name"]
        try:
            present, text, from_value = value_text(value)
        except DtsValueError as error:
            raise DtsValueError(f"{error} (column {name}, {which})") from None
        if present:
            image[name] = text
        kind = column_type(source_type, field["dataTypeNumber"], from_value)
        if from_value is not None or name not in types:
            types[name] = kind
    return image


def document(record: dict) -> dict:
    """The JSON document (see the module docstring) of a decoded record."""
    source = record.get("source") or {}
    source_type = source.get("sourceType")
    database, schema, table = split_object_name(record.get("objectName"), source_type)
    raw_fields = record.get("fields")
    fields = raw_fields if isinstance(raw_fields, list) else []
    before_images, after_images = record.get("beforeImages"), record.get("afterImages")
    types: dict[str, str] = {}
    error = before = after = None
    try:
        before = image_map(before_images, fields, source_type, types, "beforeImages")
        after = image_map(after_images, fields, source_type, types, "afterImages")
    except DtsValueError as problem:
        error = str(problem)
        before = after = None
    ddl = next((image for image in (after_images, before_images) if isinstance(image, str)), None)
    return {
        "version": record.get("version"),
        "id": record.get("id"),
        "sourceTimestamp": record.get("sourceTimestamp"),
        "sourcePosition": record.get("sourcePosition"),
        "safeSourcePosition": record.get("safeSourcePosition"),
        "sourceTxid": record.get("sourceTxid"),
        "sourceType": source_type,
        "sourceSystem": SOURCE_SYSTEMS.get(source_type),
        "sourceVersion": source.get("version"),
        "operation": record.get("operation"),
        "objectName": record.get("objectName"),
        "databaseName": database,
        "schemaName": schema,
        "tableName": table,
        "processTimestamps": record.get("processTimestamps"),
        "bornTimestamp": record.get("bornTimestamp"),
        "tags": record.get("tags") or {},
        "primaryKeys": primary_keys(record.get("tags")),
        "fields": [{"name": f["name"], "dataTypeNumber": f["dataTypeNumber"]} for f in fields] if isinstance(raw_fields, list) else None,
        "fieldsText": raw_fields if isinstance(raw_fields, str) else None,
        "before": before,
        "after": after,
        "hasBeforeImages": isinstance(before_images, list),
        "hasAfterImages": isinstance(after_images, list),
        "ddlText": ddl,
        "columnTypes": types,
        "valueError": error,
    }


def decode_dts_record(data: bytes | None) -> tuple[str | None, str | None]:
    """Binary DTS Avro record -> ``(json_document, error)``; never raises."""
    if data is None:
        return None, None
    try:
        record = read_record(data)
    except Exception as error:  # noqa: BLE001 - any reader failure means "not a record"
        return None, f"{ERROR_NOT_DTS_AVRO}: {type(error).__name__}: {error}"[:500]
    try:
        return json.dumps(document(record), ensure_ascii=False, separators=(",", ":")), None
    except Exception as error:  # noqa: BLE001 - a record the reader accepted but we cannot map
        return None, f"{ERROR_NOT_DTS_AVRO}: {type(error).__name__}: {error}"[:500]


def decode_dts_base64(value: str | None) -> tuple[str | None, str | None]:
    """Base64 text of a binary DTS Avro record (as landed) -> ``(json_document, error)``."""
    if value is None:
        return None, None
    raw, _, error = decode_base64(value)
    if error is not None:
        return None, f"{ERROR_NOT_DTS_AVRO}: {error}"
    return decode_dts_record(raw)


# -- readable form (tests, samples, hand-written records) ------------------------------------

VALUE_TYPES = (
    "Integer", "Character", "Decimal", "Float", "Timestamp", "DateTime", "TimestampWithTimeZone",
    "BinaryGeometry", "TextGeometry", "BinaryObject", "TextObject",
)


def _readable_bytes(body: dict, charset: str | None = None) -> bytes:
    if "base64" in body:
        return base64.b64decode(body["base64"])
    if "hex" in body:
        return bytes.fromhex(body["hex"])
    codec = CHARSETS.get((charset or "utf8").lower(), charset or "utf-8")
    return body["text"].encode(codec)


def datum_value(value):
    """A readable image value -> the Avro union value. Readable forms: ``null``; ``"NULL"`` /
    ``"NONE"`` (EmptyObject); ``{"<Type>": {fields}}`` with the record's own fields, except
    that bytes are given as ``"text"`` (Character: encoded with its charset), ``"base64"`` or
    ``"hex"``."""
    if value is None:
        return None
    if value in ("NULL", "NONE"):
        return value  # the enum branch (fastavro's tuple notation is for records only)
    (kind, body), = value.items()
    if kind not in VALUE_TYPES:
        raise ValueError(f"unknown DTS value type {kind}")
    body = dict(body)
    if kind == "Character":
        body = {"charset": body["charset"], "value": _readable_bytes(body, body["charset"])}
    elif kind in ("BinaryGeometry", "BinaryObject"):
        body = {"type": body["type"], "value": _readable_bytes(body)}
    elif kind == "DateTime":
        body = {k: body.get(k) for k in ("year", "month", "day", "hour", "minute", "second", "millis")}
    elif kind == "TimestampWithTimeZone":
        parts = body["value"]
        body = {"value": {k: parts.get(k) for k in ("year", "month", "day", "hour", "minute", "second", "millis")},
                "timezone": body["timezone"]}
    return (f"{NAMESPACE}.{kind}", body)


def datum_from_readable(readable: dict) -> dict:
    """A record written as readable JSON (see :func:`datum_value`) -> the Avro datum to encode.
    Optional fields default as in the schema; ``fields`` may be ``[name, dataTypeNumber]`` pairs."""
    def image(images):
        if images is None or isinstance(images, str):
            return images
        return [datum_value(v) for v in images]

    fields = readable.get("fields")
    if isinstance(fields, list):
        fields = [f if isinstance(f, dict) else {"name": f[0], "dataTypeNumber": f[1]} for f in fields]
    return {
        "version": readable.get("version", 1),
        "id": readable["id"],
        "sourceTimestamp": readable["sourceTimestamp"],
        "sourcePosition": readable.get("sourcePosition", ""),
        "safeSourcePosition": readable.get("safeSourcePosition", ""),
        "sourceTxid": readable.get("sourceTxid", ""),
        "source": readable.get("source", {"sourceType": "MySQL", "version": "8.0.28"}),
        "operation": readable["operation"],
        "objectName": readable.get("objectName"),
        "processTimestamps": readable.get("processTimestamps"),
        "tags": readable.get("tags", {}),
        "fields": fields,
        "beforeImages": image(readable.get("beforeImages")),
        "afterImages": image(readable.get("afterImages")),
        "bornTimestamp": readable.get("bornTimestamp", 0),
    }


def encode_readable(readable: dict) -> bytes:
    """Binary DTS Avro of a readable record."""
    return encode_record(datum_from_readable(readable))
