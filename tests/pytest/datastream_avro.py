"""Write Datastream events as an Avro container file (the Avro variant of format `datastream`).

The writer schema follows Datastream's Avro layout: the generic metadata (timestamps as
`timestamp-millis`, `sort_keys` as an array of string/long), a `source_metadata` record and a
`payload` record with the table's typed columns (the unified types: decimal, timestamp-micros,
date, bytes, …). Used by the tests and to regenerate samples/datastream/oracle_hr_jobs.avro:

    .venv/bin/python -m tests.pytest.datastream_avro samples/datastream/oracle_hr_jobs.avro
"""

from __future__ import annotations

import datetime as dt
import decimal
import sys
from pathlib import Path

ORACLE_METADATA = {
    "type": "record", "name": "source_metadata", "fields": [
        {"name": "log_file", "type": ["null", "string"]},
        {"name": "scn", "type": ["null", "long"]},
        {"name": "row_id", "type": ["null", "string"]},
        {"name": "is_deleted", "type": ["null", "boolean"]},
        {"name": "database", "type": ["null", "string"]},
        {"name": "schema", "type": ["null", "string"]},
        {"name": "table", "type": ["null", "string"]},
        {"name": "change_type", "type": ["null", "string"]},
        {"name": "tx_id", "type": ["null", "string"]},
        {"name": "rs_id", "type": ["null", "string"]},
        {"name": "ssn", "type": ["null", "long"]},
    ],
}

JOBS_PAYLOAD = {
    "type": "record", "name": "payload", "fields": [
        {"name": "JOB_ID", "type": "long"},
        {"name": "TITLE", "type": ["null", "string"]},
        {"name": "MIN_SALARY", "type": ["null", {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}]},
        {"name": "OPENED_AT", "type": ["null", {"type": "long", "logicalType": "timestamp-micros"}]},
        {"name": "OPENED_ON", "type": ["null", {"type": "int", "logicalType": "date"}]},
        {"name": "LOGO", "type": ["null", "bytes"]},
        {"name": "REMOTE", "type": ["null", "boolean"]},
    ],
}


def event_schema(metadata: dict = ORACLE_METADATA, payload: dict = JOBS_PAYLOAD) -> dict:
    return {
        "type": "record", "name": "datastream_event", "namespace": "com.google.cloud.datastream",
        "fields": [
            {"name": "stream_name", "type": "string"},
            {"name": "read_method", "type": "string"},
            {"name": "object", "type": "string"},
            {"name": "schema_key", "type": "string"},
            {"name": "uuid", "type": "string"},
            {"name": "read_timestamp", "type": {"type": "long", "logicalType": "timestamp-millis"}},
            {"name": "source_timestamp", "type": {"type": "long", "logicalType": "timestamp-millis"}},
            {"name": "sort_keys", "type": {"type": "array", "items": ["string", "long"]}},
            {"name": "source_metadata", "type": metadata},
            {"name": "payload", "type": ["null", payload]},
        ],
    }


def utc(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.timezone.utc)


def jobs_events() -> list[dict]:
    """An Oracle HR.JOBS stream: backfill of two rows, an update, a delete, a CDC insert."""
    stream = "projects/demo/locations/us-central1/streams/oracle-hr-avro"

    def event(n, read_method, at, change_type, deleted, payload, scn=None, rs_id=None, ssn=None):
        return {
            "stream_name": stream, "read_method": read_method, "object": "HR_JOBS", "schema_key": "jobs-v1",
            "uuid": f"7f1c0000-0000-4000-8000-{n:012d}",
            "read_timestamp": utc(at) + dt.timedelta(seconds=30), "source_timestamp": utc(at),
            "sort_keys": [int(utc(at).timestamp() * 1000)] + ([scn, rs_id, ssn] if scn else []),
            "source_metadata": {
                "log_file": None if scn is None else "/u01/oradata/redo02.log", "scn": scn,
                "row_id": f"AAAJOB{payload['JOB_ID']:04d}", "is_deleted": deleted, "database": "ORCL", "schema": "HR",
                "table": "JOBS", "change_type": change_type, "tx_id": None if scn is None else f"3.{n}.77",
                "rs_id": rs_id, "ssn": ssn,
            },
            "payload": payload,
        }

    def job(job_id, title, salary, opened_at, remote):
        return {"JOB_ID": job_id, "TITLE": title, "MIN_SALARY": decimal.Decimal(salary),
                "OPENED_AT": utc(opened_at), "OPENED_ON": utc(opened_at).date(),
                "LOGO": bytes([0, 1, 2, 255]), "REMOTE": remote}

    return [
        event(1, "oracle-backfill", "2024-03-01 09:00:00", "INSERT", False,
              job(1, "Engineer", "5000.00", "2024-01-02 08:30:00.123456", True)),
        event(2, "oracle-backfill", "2024-03-01 09:00:00", "INSERT", False,
              job(2, "Analyst", "4000.50", "2023-06-30 23:59:59.000001", False)),
        event(3, "oracle-cdc-logminer", "2024-03-01 09:05:00", "UPDATE", False,
              job(1, "Senior Engineer", "6500.00", "2024-01-02 08:30:00.123456", True),
              scn=880001, rs_id=" 0x000123.0000abcd.0010 ", ssn=0),
        event(4, "oracle-cdc-logminer", "2024-03-01 09:06:00", "DELETE", True,
              job(2, "Analyst", "4000.50", "2023-06-30 23:59:59.000001", False),
              scn=880050, rs_id=" 0x000123.0000abce.0020 ", ssn=0),
        event(5, "oracle-cdc-logminer", "2024-03-01 09:07:00", "INSERT", False,
              {"JOB_ID": 3, "TITLE": None, "MIN_SALARY": None, "OPENED_AT": None, "OPENED_ON": None,
               "LOGO": None, "REMOTE": None},
              scn=880090, rs_id=" 0x000123.0000abcf.0030 ", ssn=1),
    ]


def write_avro(path: Path, events: list[dict], schema: dict | None = None, codec: str = "deflate") -> Path:
    import fastavro

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        fastavro.writer(handle, fastavro.parse_schema(schema or event_schema()), events, codec=codec)
    return path


if __name__ == "__main__":
    print(write_avro(Path(sys.argv[1]), jobs_events()))
