"""Avro container files (Object Container Files) as JSON messages, one per record.

Datastream writes its Avro variant as container files: the header holds the writer schema
(generic metadata, ``source_metadata`` and a ``payload`` record per table); each record holds
the values by position. Landing decodes them here with fastavro into one JSON line per record,
so the same SQL (macros/formats/datastream.sql) reads JSON and Avro events, and each record
keeps its own lineage (file + 1-based record number as ``origin_offset``).

Why at landing and not in a UDF: a container file is one blob with a shared header and
compressed blocks, not one message per row; splitting it into records is I/O (like splitting
lines), and after that a record needs nothing SQL cannot do.

Values are written as JSON without losing information:

- ``timestamp-*`` / ``local-timestamp-*`` of the generic metadata (``read_timestamp``,
  ``source_timestamp``) stay epoch milliseconds, the Avro form Datastream documents;
- payload timestamps become UTC text ``yyyy-MM-dd HH:mm:ss.SSS`` (millis) or ``.SSSSSS``
  (micros), dates ``yyyy-MM-dd``, times ``HH:mm:ss.SSS``/``.SSSSSS``;
- decimals exact decimal text, bytes/fixed standard Base64, UUIDs text.

The payload's column types are added as ``_avro_payload_types`` (column -> Avro logical or
primitive type name, ``decimal(p,s)`` for decimals): the staging SQL turns them into
``column_types``. A file or record that does not decode becomes one message that is not JSON
(``<undecodable Avro ...>``), which the pipeline quarantines as ``not_json``: nothing is lost
and landing never stops.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import io
import json
import uuid
from collections.abc import Iterator
from typing import Any

AVRO_MAGIC = b"Obj\x01"
TIMESTAMP_FIELDS = {"read_timestamp", "source_timestamp"}
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)


def is_avro_container(data: bytes) -> bool:
    return data[:4] == AVRO_MAGIC


def _non_null(schema: Any) -> Any:
    """The branch of a ``["null", X]`` union that is not null (X itself otherwise)."""
    if isinstance(schema, list):
        branches = [s for s in schema if s != "null" and not (isinstance(s, dict) and s.get("type") == "null")]
        return branches[0] if len(branches) == 1 else schema
    return schema


def type_name(schema: Any) -> str:
    """Avro logical or primitive type name of a field schema (``decimal(p,s)`` for decimals)."""
    schema = _non_null(schema)
    if isinstance(schema, list):
        return "union"
    if isinstance(schema, str):
        return schema
    logical = schema.get("logicalType")
    if logical == "decimal":
        return f"decimal({schema.get('precision', 38)},{schema.get('scale', 0)})"
    if logical:
        return str(logical)
    base = schema.get("type")
    return type_name(base) if isinstance(base, (dict, list)) else str(base)


def payload_types(writer_schema: dict) -> dict[str, str]:
    """Column -> type name of the ``payload`` record of a Datastream writer schema."""
    for field in writer_schema.get("fields", []) if isinstance(writer_schema, dict) else []:
        if field.get("name") == "payload":
            payload = _non_null(field.get("type"))
            if isinstance(payload, dict) and payload.get("type") == "record":
                return {f["name"]: type_name(f["type"]) for f in payload.get("fields", [])}
    return {}


def _timestamp_text(value: dt.datetime, digits: int) -> str:
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    text = value.strftime("%Y-%m-%d %H:%M:%S.%f")
    return text[: len(text) - (6 - digits)]


def json_value(value: Any, logical: str | None = None) -> Any:
    """A decoded Avro value as a JSON value, without losing information."""
    if isinstance(value, dt.datetime):
        return _timestamp_text(value, 3 if logical and logical.endswith("millis") else 6)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        text = value.strftime("%H:%M:%S.%f")
        return text[:-3] if logical == "time-millis" else text
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, float) and value != value:  # NaN is not JSON
        return "NaN"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _epoch_millis(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=dt.timezone.utc)
        delta = aware - EPOCH
        return (delta.days * 86_400_000_000 + delta.seconds * 1_000_000 + delta.microseconds) // 1000
    return json_value(value)


def record_json(record: dict, types: dict[str, str]) -> str:
    """One Datastream record as a JSON event (the JSON variant's layout)."""
    event: dict[str, Any] = {}
    for name, value in record.items():
        if name in TIMESTAMP_FIELDS:
            event[name] = _epoch_millis(value)
        elif name == "payload" and isinstance(value, dict):
            event[name] = {column: json_value(v, types.get(column)) for column, v in value.items()}
        else:
            event[name] = json_value(value)
    if types:
        event["_avro_payload_types"] = types
    return json.dumps(event, ensure_ascii=False, allow_nan=False)


def read_avro_records(data: bytes) -> Iterator[tuple[int, str]]:
    """(1-based record number, JSON text) of every record of an Avro container file.

    A file whose header does not decode yields one undecodable message; a block that fails
    mid-file yields one undecodable message at the next record number and stops.
    """
    import fastavro

    try:
        reader = fastavro.reader(io.BytesIO(data))
        types = payload_types(reader.writer_schema)
    except Exception as error:  # noqa: BLE001 - any header failure is data, not a crash
        yield 1, f"<undecodable Avro container: {type(error).__name__}: {error}>"
        return
    number = 0
    records = iter(reader)
    while True:
        try:
            record = next(records)
        except StopIteration:
            return
        except Exception as error:  # noqa: BLE001 - corrupt block: record it and stop
            yield number + 1, f"<undecodable Avro record: {type(error).__name__}: {error}>"
            return
        number += 1
        try:
            yield number, record_json(record, types)
        except Exception as error:  # noqa: BLE001 - a value JSON cannot hold
            yield number, f"<undecodable Avro record: {type(error).__name__}: {error}>"
