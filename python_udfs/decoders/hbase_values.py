"""HBase cell values as delivered by the Lindorm change stream (seed 003).

HBase stores raw bytes; the Lindorm stream ("Debezium Format V2.0") gives every cell of an
HBase table as Base64 of those bytes. What the bytes mean is known only to the writer, which
usually encodes with ``org.apache.hadoop.hbase.util.Bytes.toBytes``:

===============  ===========================================================  ==============
declared type    ``Bytes.toBytes`` encoding                                    canonical type
===============  ===========================================================  ==============
``string``       UTF-8 (the default for undeclared cells)                     ``string``
``long``         8 bytes, big-endian two's complement                         ``bigint``
``int``          4 bytes, big-endian two's complement                         ``int``
``short``        2 bytes, big-endian two's complement                         ``smallint``
``double``       8 bytes, big-endian IEEE 754 (``doubleToRawLongBits``)       ``double``
``float``        4 bytes, big-endian IEEE 754 (``floatToRawIntBits``)         ``float``
``boolean``      1 byte, ``0x00`` false, anything else true (``toBoolean``)   ``boolean``
``bigdecimal``   4-byte scale, then the unscaled value (two's complement)     ``string``
``binary``       kept as Base64                                               ``binary``
===============  ===========================================================  ==============

A ``string`` cell whose bytes are not UTF-8 keeps its Base64 text and gets type ``binary``.
Bad input (not Base64, a length that does not fit the declared type, an unknown declared
type) gives an error value; nothing here raises.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping

from .base64_values import decode_base64
from .debezium_values import MAX_DECIMAL_BYTES, MAX_DECIMAL_DIGITS, scaled_text

ERROR_LENGTH = "hbase_value_length"
ERROR_TYPE = "hbase_unknown_type"

CANONICAL_TYPES = {
    "string": "string",
    "long": "bigint",
    "int": "int",
    "short": "smallint",
    "double": "double",
    "float": "float",
    "boolean": "boolean",
    "bigdecimal": "string",
    "binary": "binary",
}

# Accepted spellings of the declared types (Java / SQL names users are likely to write).
_ALIASES = {
    "str": "string", "varchar": "string", "text": "string", "utf8": "string",
    "bigint": "long", "int64": "long",
    "integer": "int", "int32": "int",
    "smallint": "short", "int16": "short",
    "float64": "double",
    "float32": "float",
    "bool": "boolean",
    "decimal": "bigdecimal",
    "bytes": "binary", "byte[]": "binary",
}

_FIXED_WIDTH = {"long": (8, ">q"), "int": (4, ">i"), "short": (2, ">h")}


def normalize_type(declared: str | None) -> str | None:
    """The declared type in canonical spelling (``None`` for undeclared = ``string``)."""
    if declared is None:
        return "string"
    name = declared.strip().lower()
    name = _ALIASES.get(name, name)
    return name if name in CANONICAL_TYPES else None


def java_double_text(value: float) -> str:
    """Shortest text that reads back as the same double; Spark-castable special values."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def java_float_text(value: float) -> str:
    """Shortest text that reads back as the same 32-bit float."""
    if math.isnan(value) or math.isinf(value):
        return java_double_text(value)
    packed = struct.pack(">f", value)
    for digits in range(1, 10):
        text = f"{value:.{digits}g}"
        try:
            if struct.pack(">f", float(text)) == packed:
                break
        except OverflowError:  # rounded past the largest float: needs more digits
            continue
    return repr(float(text))


def decode_hbase_bytes(raw: bytes, declared: str | None) -> tuple[str | None, str | None, str | None]:
    """Decode raw cell bytes as ``declared``; returns ``(text, canonical_type, error)``."""
    kind = normalize_type(declared)
    if kind is None:
        return None, None, f"{ERROR_TYPE}: {declared!r} (known: {', '.join(sorted(CANONICAL_TYPES))})"
    if kind == "string":
        try:
            return raw.decode("utf-8"), "string", None
        except UnicodeDecodeError:
            return None, "binary", None  # caller keeps the Base64 text
    if kind == "binary":
        return None, "binary", None
    if kind in _FIXED_WIDTH:
        width, fmt = _FIXED_WIDTH[kind]
        if len(raw) != width:
            return None, None, f"{ERROR_LENGTH}: {kind} needs {width} bytes, got {len(raw)}"
        return str(struct.unpack(fmt, raw)[0]), CANONICAL_TYPES[kind], None
    if kind == "double":
        if len(raw) != 8:
            return None, None, f"{ERROR_LENGTH}: double needs 8 bytes, got {len(raw)}"
        return java_double_text(struct.unpack(">d", raw)[0]), "double", None
    if kind == "float":
        if len(raw) != 4:
            return None, None, f"{ERROR_LENGTH}: float needs 4 bytes, got {len(raw)}"
        return java_float_text(struct.unpack(">f", raw)[0]), "float", None
    if kind == "boolean":
        if len(raw) != 1:
            return None, None, f"{ERROR_LENGTH}: boolean needs 1 byte, got {len(raw)}"
        return ("true" if raw[0] != 0 else "false"), "boolean", None
    # bigdecimal: Bytes.toBytes(BigDecimal) = 4-byte scale + BigInteger.toByteArray()
    if len(raw) < 5:
        return None, None, f"{ERROR_LENGTH}: bigdecimal needs at least 5 bytes, got {len(raw)}"
    scale = struct.unpack(">i", raw[:4])[0]
    if len(raw) - 4 > MAX_DECIMAL_BYTES or abs(scale) > MAX_DECIMAL_DIGITS:
        return None, None, f"{ERROR_LENGTH}: bigdecimal of {len(raw) - 4} bytes at scale {scale}: more digits than a decimal holds"
    unscaled = int.from_bytes(raw[4:], "big", signed=True)
    return scaled_text(unscaled, scale), "string", None


def decode_hbase_value(value: str | None, declared: str | None = None) -> tuple[str | None, str | None, str | None]:
    """Decode one Base64 cell; returns ``(text, canonical_type, error)``.

    ``text`` is the canonical text of the value (the Base64 itself when it stays binary);
    a null cell stays null with the declared type's canonical type.
    """
    kind = normalize_type(declared)
    if value is None:
        return None, CANONICAL_TYPES.get(kind or "", None), None
    raw, _, error = decode_base64(value)
    if error is not None or raw is None:
        return None, None, error
    text, canonical, error = decode_hbase_bytes(raw, declared)
    if error is not None:
        return None, None, error
    if text is None and canonical == "binary":
        return value, "binary", None
    return text, canonical, None


def decode_hbase_image(
    image: Mapping[str, str | None] | None,
    declared_types: Mapping[str, str] | None = None,
) -> tuple[dict[str, str | None] | None, dict[str, str] | None, str | None]:
    """Decode every cell of an HBase row image (column → Base64).

    Returns ``(image, column_types, error)``: the decoded image and the canonical type of each
    column, or ``(None, None, error)`` naming the first column that did not decode.
    """
    if image is None:
        return None, None, None
    declared = dict(declared_types or {})
    decoded: dict[str, str | None] = {}
    types: dict[str, str] = {}
    for column in sorted(image):
        text, canonical, error = decode_hbase_value(image[column], declared.get(column))
        if error is not None:
            return None, None, f"{error} (column {column})"
        decoded[column] = text
        types[column] = canonical or "string"
    return decoded, types, None
