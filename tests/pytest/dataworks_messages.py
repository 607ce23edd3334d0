"""Builders for DataWorks test messages (the shape of seeds 000/001)."""

from __future__ import annotations

import json
from typing import Any


def message(
    op: str,
    table: str | None = "t",
    *,
    db: str = "db",
    schema_name: str | None = None,
    db_type: str = "MySQL",
    columns: list[tuple[str, str]] | None = None,
    primary_key: list[str] | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    sequence_id: str | None = None,
    event_time: int | str = 1605339932000,
    system_time: int | None = None,
    ddl: dict[str, str] | None = None,
    scn: str | None = None,
) -> str:
    source = {"dbType": db_type, "dbName": db, "tableName": table}
    if schema_name:
        source["schemaName"] = schema_name
    payload: dict[str, Any] = {
        "before": {"dataColumn": before} if before is not None else None,
        "after": {"dataColumn": after} if after is not None else None,
        "sequenceId": sequence_id,
        "op": op,
        "timestamp": {"eventTime": event_time, "systemTime": system_time or event_time, "checkpointTime": event_time},
        "ddl": ddl,
    }
    if scn is not None:
        payload["scn"] = scn
    return json.dumps(
        {
            "schema": {
                "dataColumn": [{"name": n, "type": t} for n, t in (columns or [])],
                "primaryKey": primary_key,
                "source": source,
            },
            "payload": payload,
            "version": "0.0.1",
        },
        ensure_ascii=False,
    )
