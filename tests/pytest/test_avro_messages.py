"""Avro container files at landing (pure, no Spark): one JSON event per record, typed payload
values without loss, undecodable files and blocks as non-JSON messages."""

from __future__ import annotations

import io
import json

import fastavro

from python_udfs.pipeline.avro_messages import is_avro_container, payload_types, read_avro_records
from python_udfs.pipeline.landing import read_file_messages

from .datastream_avro import event_schema, jobs_events, write_avro


def avro_bytes(events, codec="null") -> bytes:
    buffer = io.BytesIO()
    fastavro.writer(buffer, fastavro.parse_schema(event_schema()), events, codec=codec)
    return buffer.getvalue()


def test_records_become_json_events_numbered_from_one():
    data = avro_bytes(jobs_events())
    assert is_avro_container(data) and not is_avro_container(b'{"a": 1}')
    records = list(read_avro_records(data))
    assert [n for n, _ in records] == [1, 2, 3, 4, 5]
    first = json.loads(records[0][1])
    assert first["uuid"] == "7f1c0000-0000-4000-8000-000000000001"
    assert first["source_timestamp"] == 1709283600000 and first["read_timestamp"] == 1709283630000  # epoch ms
    assert first["payload"] == {
        "JOB_ID": 1, "TITLE": "Engineer", "MIN_SALARY": "5000.00", "OPENED_AT": "2024-01-02 08:30:00.123456",
        "OPENED_ON": "2024-01-02", "LOGO": "AAEC/w==", "REMOTE": True,
    }
    assert first["_avro_payload_types"]["MIN_SALARY"] == "decimal(10,2)"
    assert first["_avro_payload_types"]["OPENED_AT"] == "timestamp-micros"
    third = json.loads(records[2][1])
    assert third["sort_keys"] == [1709283900000, 880001, " 0x000123.0000abcd.0010 ", 0]


def test_payload_types_unwrap_nullable_unions():
    assert payload_types(event_schema()) == {
        "JOB_ID": "long", "TITLE": "string", "MIN_SALARY": "decimal(10,2)", "OPENED_AT": "timestamp-micros",
        "OPENED_ON": "date", "LOGO": "bytes", "REMOTE": "boolean",
    }


def test_compressed_file_lands_through_read_file_messages(tmp_path):
    path = write_avro(tmp_path / "jobs.avro", jobs_events(), codec="deflate")
    messages = list(read_file_messages(path, "datastream"))
    assert [m.line_number for m in messages] == [1, 2, 3, 4, 5]
    assert all(json.loads(m.text)["object"] == "HR_JOBS" for m in messages)


def test_corrupt_files_become_undecodable_messages_not_errors():
    data = avro_bytes(jobs_events(), codec="deflate")
    header_only = list(read_avro_records(data[:10]))
    assert len(header_only) == 1 and header_only[0][1].startswith("<undecodable Avro container")
    truncated = list(read_avro_records(data[:-40]))
    assert truncated[-1][1].startswith("<undecodable Avro record")
    assert [n for n, _ in truncated] == list(range(1, len(truncated) + 1))
