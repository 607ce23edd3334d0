"""Debezium decimal values (Kafka Connect ``Decimal`` and Debezium ``VariableScaleDecimal``).

With ``decimal.handling.mode=precise`` (the default) Debezium's JSON converter writes a
``org.apache.kafka.connect.data.Decimal`` as Base64 of the unscaled value's big-endian two's
complement bytes (``BigInteger.toByteArray``); the scale is the schema parameter ``scale``.
``io.debezium.data.VariableScaleDecimal`` (PostgreSQL ``numeric`` without precision, Oracle
``NUMBER`` without scale) is a struct ``{"scale": s, "value": "<Base64>"}`` carrying its own
scale. Some producers write the decimal as a JSON number or a string instead; that text is
kept exact and written with the schema's scale.

Every function returns an error value instead of raising.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation

from .base64_values import decode_base64

ERROR_DECIMAL = "invalid_decimal"
VARIABLE_SCALE = "variable"

_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
# Beyond these a value is no column's decimal (Spark holds 38 digits), and its text would cost
# memory and time without bound (a fuzzed 4,000-byte Base64 value, `1e999999999`).
MAX_DECIMAL_BYTES = 1024  # about 2,466 digits
MAX_DECIMAL_DIGITS = 4000  # of the plain text: integer digits + scale


def scaled_text(unscaled: int, scale: int) -> str:
    """Exact decimal text of ``unscaled × 10^-scale`` (plain notation, ``scale`` digits)."""
    if scale <= 0:
        return str(unscaled * 10 ** (-scale))
    sign = "-" if unscaled < 0 else ""
    digits = str(abs(unscaled)).rjust(scale + 1, "0")
    return f"{sign}{digits[:-scale]}.{digits[-scale:]}"


def _number_text(value: str, scale: int | None) -> tuple[str | None, str | None]:
    try:
        number = Decimal(value)
    except InvalidOperation:
        return None, f"{ERROR_DECIMAL}: not a number: {value[:40]!r}"
    exponent = number.as_tuple().exponent
    if not isinstance(exponent, int) or len(number.as_tuple().digits) + abs(exponent) + abs(scale or 0) > MAX_DECIMAL_DIGITS:
        return None, f"{ERROR_DECIMAL}: more than {MAX_DECIMAL_DIGITS} digits: {value[:40]!r}"
    if scale is None:
        return format(number, "f"), None
    return format(number, f".{max(scale, 0)}f"), None


def decode_connect_decimal(
    value: str | None, scale: int | str | None, always_base64: bool = False
) -> tuple[str | None, str | None]:
    """A ``Decimal`` value (Base64 bytes, JSON number text or numeric string) → ``(text, error)``.

    ``always_base64``: the schema types the value as bytes, so numeric-looking text is Base64 too.
    """
    if value is None:
        return None, None
    try:
        scale_number = int(scale) if scale not in (None, "") else 0
    except (TypeError, ValueError):
        return None, f"{ERROR_DECIMAL}: scale {scale!r} is not an integer"
    text = value.strip()
    if not always_base64 and _NUMBER.match(text):
        return _number_text(text, scale_number)
    raw, _, error = decode_base64(text)
    if error is not None or raw is None:
        return None, f"{ERROR_DECIMAL}: {error}"
    if not raw:
        return None, f"{ERROR_DECIMAL}: no bytes"
    if len(raw) > MAX_DECIMAL_BYTES or abs(scale_number) > MAX_DECIMAL_DIGITS:
        return None, f"{ERROR_DECIMAL}: {len(raw)} bytes at scale {scale_number}: more digits than a decimal holds"
    return scaled_text(int.from_bytes(raw, "big", signed=True), scale_number), None


def decode_variable_scale_decimal(value: str | None) -> tuple[str | None, str | None]:
    """A ``VariableScaleDecimal`` (JSON text of ``{"scale", "value"}``) → ``(text, error)``."""
    if value is None:
        return None, None
    text = value.strip()
    if _NUMBER.match(text):  # already a number (e.g. decimal.handling.mode=double/string)
        return _number_text(text, None)
    try:
        parsed = json.loads(text)
    except ValueError:
        return None, f"{ERROR_DECIMAL}: not a {{scale, value}} struct: {text[:40]!r}"
    if not isinstance(parsed, dict) or "value" not in parsed:
        return None, f"{ERROR_DECIMAL}: not a {{scale, value}} struct: {text[:40]!r}"
    if parsed["value"] is None:
        return None, None
    # inside the struct a JSON string is always the Base64 bytes; a JSON number is a number
    return decode_connect_decimal(
        str(parsed["value"]), parsed.get("scale", 0), always_base64=isinstance(parsed["value"], str)
    )


def decode_decimal_image(
    image: Mapping[str, str | None] | None,
    decimal_columns: Mapping[str, str] | None,
) -> tuple[dict[str, str | None] | None, str | None]:
    """Decode the decimal columns of a row image; other columns are returned unchanged.

    ``decimal_columns`` maps a column to its scale (``Decimal``) or to ``"variable"``
    (``VariableScaleDecimal``). A top-level value that reads as a number is taken as one even
    where the schema says bytes: producers such as Paimon's tests write JSON numbers there,
    and the image map no longer tells a JSON number from a string. Returns ``(image, None)`` or ``(None, error)`` naming the
    first column that did not decode.
    """
    if image is None:
        return None, None
    columns = dict(decimal_columns or {})
    result = dict(image)
    for column in sorted(columns):
        if column not in result:
            continue
        kind = columns[column]
        if kind == VARIABLE_SCALE:
            text, error = decode_variable_scale_decimal(result[column])
        else:
            text, error = decode_connect_decimal(result[column], kind)
        if error is not None:
            return None, f"{error} (column {column})"
        result[column] = text
    return result, None
