"""Generated CDC histories for property tests: the true final state, and messages per format.

A history is a list of abstract changes on a few hot keys of one table (inserts, updates,
key-changing updates, deletes, re-inserts, sometimes a truncate), in true order. Each format
module turns a change into the vendor's messages (an update may become two halves). The test
then delivers the messages in random batches, shuffled, with duplicates.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field


@dataclass
class Change:
    position: int  # true order (the vendor's sequence)
    op: str  # insert | update | delete | truncate
    key: int | None = None
    before: dict | None = None
    after: dict | None = None
    event_time_ms: int = 0


@dataclass
class History:
    table: str
    changes: list[Change] = field(default_factory=list)

    def final_state(self) -> dict[str, dict | None]:
        """row_key -> live image (column -> text), or None for a tombstone."""
        state: dict[str, dict | None] = {}
        for change in self.changes:
            if change.op == "truncate":
                for key in state:
                    state[key] = None
            elif change.op == "delete":
                state[str(change.key)] = None
            else:
                if change.before is not None and change.before["id"] != change.after["id"]:
                    state[str(change.before["id"])] = None
                state[str(change.after["id"])] = {k: str(v) for k, v in change.after.items()}
        return state


def generate(table: str, rng: random.Random, length: int, allow_truncate: bool = True) -> History:
    history = History(table)
    live: dict[int, dict] = {}
    used: set[int] = set()
    position = 1000
    time_ms = 1_700_000_000_000
    for _ in range(length):
        position += rng.randint(1, 3)
        time_ms += rng.randint(0, 2000)
        roll = rng.random()
        if allow_truncate and roll < 0.04 and live:
            history.changes.append(Change(position, "truncate", event_time_ms=time_ms))
            live.clear()
            continue
        if not live or roll < 0.3:
            key = rng.choice([k for k in range(1, 9) if k not in live] or [max(used | {8}) + 1])
            row = {"id": key, "name": f"n{rng.randint(0, 99)}", "qty": rng.randint(0, 1000)}
            live[key] = row
            used.add(key)
            history.changes.append(Change(position, "insert", key, None, dict(row), time_ms))
        elif roll < 0.8:
            key = rng.choice(sorted(live))
            before = dict(live[key])
            after = dict(before, name=f"n{rng.randint(0, 99)}", qty=rng.randint(0, 1000))
            if rng.random() < 0.1:  # primary-key change to a never-used key
                new_key = max(used) + 1
                used.add(new_key)
                after["id"] = new_key
                del live[key]
            live[after["id"]] = after
            history.changes.append(Change(position, "update", after["id"], before, after, time_ms))
        else:
            key = rng.choice(sorted(live))
            history.changes.append(Change(position, "delete", key, dict(live.pop(key)), None, time_ms))
    return history


def deliveries(messages: list[str], batches: int, rng: random.Random, duplicate_rate: float = 0.15) -> list[list[str]]:
    """Spread messages over batches at random (any order), shuffle each, add duplicates."""
    spread: list[list[str]] = [[] for _ in range(batches)]
    for message in messages:
        spread[rng.randrange(batches)].append(message)
        if rng.random() < duplicate_rate:
            spread[rng.randrange(batches)].append(message)
    for batch in spread:
        rng.shuffle(batch)
    return spread


# -- formats -----------------------------------------------------------------------------------
KV_COLUMNS = [("id", "LONG"), ("name", "STRING"), ("qty", "LONG")]


def dataworks_messages(history: History, rng: random.Random) -> list[str]:
    def message(op, change, before=None, after=None):
        return json.dumps({
            "schema": {"dataColumn": [{"name": n, "type": t} for n, t in KV_COLUMNS], "primaryKey": ["id"],
                       "source": {"dbType": "MySQL", "dbName": "prop", "tableName": history.table}},
            "payload": {"before": {"dataColumn": before} if before else None,
                        "after": {"dataColumn": after} if after else None,
                        "sequenceId": str(1_600_000_000_000_000_000 + change.position), "op": op,
                        "timestamp": {"eventTime": change.event_time_ms, "systemTime": change.event_time_ms + 5},
                        "ddl": {"text": "truncate table t"} if op == "TRUNCATE" else None},
            "version": "0.0.1"})

    out = []
    for change in history.changes:
        if change.op == "insert":
            out.append(message("INSERT", change, after=change.after))
        elif change.op == "delete":
            out.append(message("DELETE", change, before=change.before))
        elif change.op == "truncate":
            out.append(message("TRUNCATE", change))
        elif rng.random() < 0.5:  # two-message update
            out.append(message("UPDATE_BEFOR", change, before=change.before))
            out.append(message("UPDATE_AFTER", change, after=change.after))
        else:
            out.append(message("UPDATE_AFTER", change, before=change.before, after=change.after))
    return out


def datahub_tuple_messages(history: History, rng: random.Random) -> list[str]:
    def record(op, change, image, before_flag, after_flag):
        return json.dumps({**image, "_sequence_id_": str(1_600_000_000_000_000_000 + change.position),
                           "_operation_type_": op, "_excute_time_": change.event_time_ms,
                           "_source_table_": f"prop.{history.table}",
                           "_before_image_": before_flag, "_after_image_": after_flag})

    out = []
    for change in history.changes:
        if change.op == "insert":
            out.append(record("I", change, change.after, "N", "Y"))
        elif change.op == "delete":
            out.append(record("D", change, change.before, "Y", "N"))
        elif change.op == "update":
            out.append(record("U", change, change.before, "Y", "N"))
            out.append(record("U", change, change.after, "N", "Y"))
    return out


def dts_avro_messages(history: History, rng: random.Random) -> list[str]:
    """DTS Avro records (binary, written with fastavro) as Base64 lines: one record per change,
    `id` = the position; an update is one UPDATE record with both images; a truncate is a DDL
    record `TRUNCATE TABLE`."""
    import base64

    from python_udfs.decoders.dts_avro import encode_readable

    def image(row):
        return [{"Integer": {"precision": 11, "value": str(row["id"])}},
                {"Character": {"charset": rng.choice(["utf8mb4", "utf8", "latin1"]), "text": row["name"]}},
                {"Integer": {"precision": 11, "value": str(row["qty"])}}]

    def record(operation, change, **images):
        readable = {"id": change.position, "sourceTimestamp": change.event_time_ms // 1000, "operation": operation,
                    "sourcePosition": f"{change.position}@1@{change.event_time_ms // 1000}",
                    "objectName": f"prop.{history.table}", "tags": {"pk_uk_info": '{"PRIMARY":["id"]}'},
                    "fields": [["id", 3], ["name", 253], ["qty", 3]], "bornTimestamp": change.event_time_ms + 5, **images}
        return base64.b64encode(encode_readable(readable)).decode("ascii")

    out = []
    for change in history.changes:
        if change.op == "insert":
            out.append(record("INSERT", change, afterImages=image(change.after)))
        elif change.op == "delete":
            out.append(record("DELETE", change, beforeImages=image(change.before)))
        elif change.op == "truncate":
            out.append(record("DDL", change, afterImages=f"TRUNCATE TABLE {history.table}"))
        else:
            out.append(record("UPDATE", change, beforeImages=image(change.before), afterImages=image(change.after)))
    return out
