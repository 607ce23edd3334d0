"""Pure parts of the pipeline tools: reading landing files and rendering the report."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from python_udfs.pipeline.landing import message_files, origin_name, read_messages
from python_udfs.pipeline.report import render


def test_read_messages_keeps_line_numbers_and_skips_blank_lines():
    data = b'{"a":1}\r\n\n  \n{"b":2}\n\xff\xfe broken\n'
    messages = list(read_messages(data))
    assert [(m.line_number, m.text) for m in messages] == [
        (1, '{"a":1}'), (4, '{"b":2}'), (5, "\ufffd\ufffd broken"),
    ]


def test_message_files_expands_directories_in_order(tmp_path: Path):
    (tmp_path / "b.jsonl").write_text("{}\n")
    (tmp_path / "a.jsonl").write_text("{}\n")
    (tmp_path / ".hidden.jsonl").write_text("{}\n")
    (tmp_path / "notes.md").write_text("not messages")
    assert [p.name for p in message_files([tmp_path])] == ["a.jsonl", "b.jsonl"]


def test_origin_is_relative_inside_the_project(tmp_path: Path):
    inside = tmp_path / "landing" / "x.jsonl"
    assert origin_name(inside, tmp_path) == "landing/x.jsonl"
    assert origin_name(Path("/elsewhere/x.jsonl"), tmp_path) == "/elsewhere/x.jsonl"


def test_report_renders_streams_tables_and_escapes_data():
    page = render(
        streams=[{"source_format": "dataworks", "stream_name": "<script>", "messages_landed": 3,
                  "row_events": 2, "control_events": 1, "quarantined_events": 0,
                  "last_heartbeat_at": None, "last_change_committed_at": None,
                  "last_change_lag_seconds": 1.5, "seconds_since_source_alive": 10.0}],
        tables=[{"table_id": "shop.orders", "changes": 9, "inserts": 6, "updates": 2, "deletes": 1,
                 "lag_p50_seconds": 0.5, "lag_p95_seconds": 0.7, "lag_max_seconds": 0.7,
                 "last_committed_at": None}],
        hourly=[{"hour": "2024-01-01 10:00", "table_id": "shop.orders", "changes": 9}],
        generated_at=dt.datetime(2026, 11, 22, 12, 0),
    )
    assert "<h2>Streams</h2>" in page and "shop.orders" in page
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert page.count("<svg") == 3
