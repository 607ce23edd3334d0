"""A readable HTML report of stream health: lag and volume per stream and per table.

``cdc-pipeline report --out report.html`` writes one self-contained page (inline SVG, no
JavaScript, no network): per stream the freshness figures of ``stream_progress``; per table
the change volume by hour and the lag between commit at the source and landing.

Timestamps reach Python as text (:func:`python_rows`): Spark holds years up to 294247 and
Python's datetime only up to 9999, so a message with a far-future time would otherwise stop
every reader (docs/operations.md, "Timestamps Python cannot hold"). Every name and value from
a message is HTML-escaped.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from collections.abc import Sequence
from typing import Any

BAR_WIDTH = 360


def _bar(value: float, maximum: float, colour: str = "#4c78a8") -> str:
    width = 0 if maximum <= 0 else max(1, int(BAR_WIDTH * value / maximum))
    return (
        f'<svg width="{BAR_WIDTH}" height="14" role="img" aria-label="{value:g}">'
        f'<rect width="{width}" height="14" fill="{colour}"/></svg>'
    )


def visible_text(value: Any) -> str:
    """``value`` as text with control and other invisible characters (BEL, ESC, U+202E) shown
    as JSON escapes: names from messages reach a page or a terminal as what they are."""
    text = "" if value is None else str(value)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] if ord(c) < 0x10000 else f"\\U{ord(c):08x}" for c in text)


def _cell(value: Any) -> str:
    if value is None:
        return "<td class=null>–</td>"
    if isinstance(value, float):
        return f"<td class=num>{value:,.1f}</td>"
    if isinstance(value, int):
        return f"<td class=num>{value:,}</td>"
    return f"<td>{html.escape(visible_text(value))}</td>"


def _table(rows: Sequence[dict], columns: Sequence[str], bar_column: str | None = None) -> str:
    maximum = max((float(r[bar_column] or 0) for r in rows), default=0) if bar_column else 0
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns) + ("<th></th>" if bar_column else "")
    body = []
    for row in rows:
        cells = "".join(_cell(row[c]) for c in columns)
        if bar_column:
            cells += f"<td>{_bar(float(row[bar_column] or 0), maximum)}</td>"
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def render(streams: list[dict], tables: list[dict], hourly: list[dict], generated_at: dt.datetime) -> str:
    """The page, from already-collected rows (pure: tested without Spark)."""
    sections = [
        "<h2>Streams</h2>",
        "<p>Freshness counts heartbeats as proof of life: a quiet but healthy stream stays fresh.</p>",
        _table(
            streams,
            ["source_format", "stream_name", "messages_landed", "row_events", "control_events",
             "quarantined_events", "last_heartbeat_at", "last_change_committed_at",
             "last_change_lag_seconds", "seconds_since_source_alive"],
            bar_column="seconds_since_source_alive",
        ),
        "<h2>Tables: volume and lag</h2>",
        "<p>Lag = landed_at − committed_at of each change (seconds).</p>",
        _table(
            tables,
            ["table_id", "changes", "inserts", "updates", "deletes", "lag_p50_seconds",
             "lag_p95_seconds", "lag_max_seconds", "last_committed_at"],
            bar_column="changes",
        ),
        "<h2>Changes per hour (source commit time)</h2>",
        _table(hourly, ["hour", "table_id", "changes"], bar_column="changes"),
    ]
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>CDC stream report</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:2em}"
        "th,td{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;font-size:13px}"
        "td.num{text-align:right}td.null{color:#999}</style></head><body>"
        f"<h1>CDC stream report</h1><p>Generated {generated_at:%Y-%m-%d %H:%M:%S} UTC.</p>"
        + "".join(sections)
        + "</body></html>"
    )


def python_safe(frame):
    """``frame`` with every timestamp and date column as text (``cast(... as string)``, UTC as
    the session's zone: ``2024-01-01 10:00:00``, ``+10000-01-01 00:00:00``), and every column
    with a timestamp inside a struct, array or map as its JSON text: nothing a Python
    datetime cannot hold is converted."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import (
        ArrayType,
        DateType,
        MapType,
        StructType,
        TimestampNTZType,
        TimestampType,
    )

    def holds_time(data_type) -> bool:
        if isinstance(data_type, (TimestampType, TimestampNTZType, DateType)):
            return True
        if isinstance(data_type, StructType):
            return any(holds_time(f.dataType) for f in data_type.fields)
        if isinstance(data_type, ArrayType):
            return holds_time(data_type.elementType)
        if isinstance(data_type, MapType):
            return holds_time(data_type.keyType) or holds_time(data_type.valueType)
        return False

    columns = []
    for field in frame.schema.fields:
        column = F.col(f"`{field.name.replace('`', '``')}`")
        if isinstance(field.dataType, (TimestampType, TimestampNTZType, DateType)):
            column = column.cast("string")
        elif holds_time(field.dataType):
            column = F.to_json(column)
        columns.append(column.alias(field.name))
    return frame.select(*columns)


def python_rows(spark, sql: str) -> list[dict]:
    """The rows of ``sql`` as dicts, timestamps as text (:func:`python_safe`)."""
    return [r.asDict() for r in python_safe(spark.sql(sql)).collect()]


def collect(spark, schema: str) -> tuple[list[dict], list[dict], list[dict]]:
    def rows(sql: str) -> list[dict]:
        return python_rows(spark, sql)

    streams = rows(f"select * from {schema}.stream_progress order by source_format, stream_name")
    tables = rows(
        f"""
        select table_id,
               count(*) as changes,
               count_if(operation = 'insert') as inserts,
               count_if(operation = 'update') as updates,
               count_if(operation = 'delete') as deletes,
               percentile_approx(lag, 0.5) as lag_p50_seconds,
               percentile_approx(lag, 0.95) as lag_p95_seconds,
               max(lag) as lag_max_seconds,
               max(committed_at) as last_committed_at
        from (
            select *, cast(unix_micros(landed_at) - unix_micros(committed_at) as double) / 1e6 as lag
            from {schema}.change_log
        ) as changes
        group by table_id
        order by table_id
        """
    )
    hourly = rows(
        f"""
        select date_format(date_trunc('hour', committed_at), 'yyyy-MM-dd HH:00') as hour,
               table_id, count(*) as changes
        from {schema}.change_log
        where committed_at is not null
        group by 1, 2
        order by 1 desc, 2
        limit 200
        """
    )
    return streams, tables, hourly
