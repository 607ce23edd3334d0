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


def generate(table: str, rng: random.Random, length: int, allow_truncate: bool = True,
             single_column_updates: bool = False) -> History:
    """A random history; with `single_column_updates` half of the updates change one column only
    (so partial after images must be merged over older ones)."""
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
            if single_column_updates and rng.random() < 0.5:
                kept = rng.choice(["name", "qty"])
                after[kept] = before[kept]
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


def canal_messages(history: History, rng: random.Random) -> list[str]:
    """Canal FlatMessage (DTS layout): `es` = event time, `id` = position; an UPDATE's `old`
    holds only the changed columns' previous values; inserts sometimes batched in `data[]`."""
    mysql_types = {"id": "bigint(20)", "name": "varchar(32)", "qty": "int(11)"}

    def message(type_, change, rows, old=None, sql=""):
        return json.dumps({
            "data": rows, "old": old, "database": "prop", "table": history.table,
            "es": change.event_time_ms, "id": change.position, "isDdl": type_ == "TRUNCATE",
            "pkNames": None if type_ == "TRUNCATE" else ["id"], "sql": sql,
            "mysqlType": None if type_ == "TRUNCATE" else mysql_types,
            "sqlType": None if type_ == "TRUNCATE" else {"id": -5, "name": 12, "qty": 4},
            "ts": change.event_time_ms + 7, "type": type_,
        })

    def text(image):
        return {k: str(v) for k, v in image.items()}

    out = []
    for change in history.changes:
        if change.op == "insert":
            out.append(message("INSERT", change, [text(change.after)]))
        elif change.op == "delete":
            out.append(message("DELETE", change, [text(change.before)]))
        elif change.op == "truncate":
            out.append(message("TRUNCATE", change, None, sql=f"TRUNCATE TABLE {history.table}"))
        else:
            old = {k: str(v) for k, v in change.before.items() if change.after.get(k) != v}
            out.append(message("UPDATE", change, [text(change.after)], [old]))
    return out


def shareplex_messages(history: History, rng: random.Random, key_only: bool = False) -> list[str]:
    """SharePlex JSON (DTS): an `upd` carries the before image in `key` and only the changed
    columns in `data` (a partial after image); position = scn, one transaction per change.
    With `key_only`, `key` holds only the key column (as when the source logs key columns
    only), so the after image is partial and merges over the prior row; a key-changing update
    still carries the whole before image (the moved row has nothing to merge over)."""

    def message(op, change, data=None, key=None):
        meta = {"time": "2023-11-14T22:20:01", "userid": 84, "op": op, "scn": str(10_000_000 + change.position),
                "rowid": None, "trans": f"3.12.{change.position}", "seq": 1, "size": 1,
                "table": f"prop.{history.table}", "idx": "1/1", "posttime": "2023-11-14T22:20:03"}
        message = {"meta": meta}
        if data is not None:
            message["data"] = {k: str(v) for k, v in data.items()}
        if key is not None:
            message["key"] = {k: str(v) for k, v in key.items()}
        return json.dumps(message)

    out = []
    for change in history.changes:
        if change.op == "insert":
            out.append(message("ins", change, data=change.after))
        elif change.op == "delete":
            out.append(message("del", change, data=change.before))
        elif change.op == "truncate":
            out.append(message("trunc", change))
        else:
            changed = {k: v for k, v in change.after.items() if change.before.get(k) != v}
            key_changed = change.before["id"] != change.after["id"]
            key = {"id": change.before["id"]} if key_only and not key_changed else change.before
            out.append(message("upd", change, data=changed, key=key))
    return out


def debezium_messages(history: History, rng: random.Random) -> list[str]:
    """Debezium MySQL connector JSON (no schema wrapper, sometimes with it): binlog file/pos/row
    positions; a primary-key change is a delete of the old key and a create of the new one,
    as Debezium emits it; truncate is op `t`."""

    def message(op, change, before=None, after=None, row=0):
        value = {
            "before": before, "after": after, "op": op, "ts_ms": change.event_time_ms + 9,
            "source": {"version": "2.7.3.Final", "connector": "mysql", "name": "prop", "ts_ms": change.event_time_ms,
                       "snapshot": "false", "db": "prop", "table": history.table, "server_id": 1,
                       "file": f"mysql-bin.{change.position // 1000 + 1:06d}", "pos": change.position * 10, "row": row},
        }
        if rng.random() < 0.3:
            return json.dumps({"schema": {}, "payload": value})
        return json.dumps(value)

    out = []
    for change in history.changes:
        if change.op == "insert":
            out.append(message("c", change, after=change.after))
        elif change.op == "delete":
            out.append(message("d", change, before=change.before))
        elif change.op == "truncate":
            out.append(message("t", change))
        elif change.before["id"] != change.after["id"]:
            out.append(message("d", change, before=change.before, row=0))
            out.append(message("c", change, after=change.after, row=1))
        else:
            out.append(message("u", change, before=change.before, after=change.after))
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


DATASTREAM_SOURCES = ["mysql", "oracle", "postgresql", "sqlserver"]


def _datastream_timestamp(ms: int, rng: random.Random):
    """One instant in one of the forms Datastream events carry (ISO text or epoch)."""
    import datetime as dt

    instant = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(milliseconds=ms)
    form = rng.randrange(5)
    if form == 0:
        return ms  # epoch milliseconds, JSON number (the Avro form)
    if form == 1:
        return str(ms)  # epoch milliseconds as text
    if form == 2:
        return instant.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
    if form == 3:
        return instant.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}"  # no zone: UTC
    shifted = instant.astimezone(dt.timezone(dt.timedelta(hours=2)))
    return shifted.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}+02:00"


def datastream_messages(history: History, rng: random.Random, namespace: str = "prop",
                        source: str | None = None) -> list[str]:
    """Datastream JSON events of a history, table `<namespace>.<table>` from one source type.

    The first insert of a key may come as a backfill read; updates come as UPDATE-DELETE +
    UPDATE-INSERT (MySQL, Oracle, and key changes everywhere) or as one UPDATE (PostgreSQL,
    SQL Server); timestamps in random ISO/epoch forms; positions as each source writes them
    (MySQL binlog files roll over, so positions restart at a higher file number).
    """
    import uuid

    source = source or rng.choice(DATASTREAM_SOURCES)
    seen: set[int] = set()
    out: list[str] = []

    def event(change: Change, change_type: str | None, image: dict, half: str = "", backfill: bool = False) -> str:
        p = change.position
        # whole seconds (as MySQL binlog times are): many changes share a timestamp, so the
        # log positions decide their order
        seconds = change.event_time_ms // 1000 * 1000
        metadata: dict = {"table": history.table, "is_deleted": change_type in ("DELETE", "UPDATE-DELETE")}
        if change_type is not None:
            metadata["change_type"] = change_type
        if source == "mysql":
            metadata.update(database=namespace, primary_keys=["id"])
            position = ["", 0] if backfill else [f"mysql-bin.{p // 40:06d}", (p % 40) * 100 + 4]
            metadata.update(log_file=position[0], log_position=position[1])
        elif source == "oracle":
            metadata.update(schema=namespace, row_id=f"AAAR{p:08d}")
            position = [] if backfill else [p * 10, f" 0x{p:06x}.{p * 7:08x}.0010 ", 0]
            if not backfill:
                metadata.update(scn=position[0], rs_id=position[1], ssn=0, tx_id=f"1.{p}.0")
        elif source == "postgresql":
            metadata.update(schema=namespace, primary_keys=["id"])
            position = [] if backfill else [f"{p // 256:X}/{(p % 256) * 4096:X}"]
            if not backfill:
                metadata.update(lsn=position[0], tx_id=str(p))
        else:
            metadata.update(schema=namespace, replication_index=["id"])
            position = [] if backfill else [f"{p // 100:08X}:{(p % 100) * 16:08X}:0001"]
            if not backfill:
                metadata.update(lsn=position[0], tx_id=f"0000:{p:08x}", physical_location=[1, p, 3])
        read_method = {
            "mysql": ("mysql-backfill-fulldump", "mysql-cdc-binlog"),
            "oracle": ("oracle-backfill", "oracle-cdc-logminer"),
            "postgresql": ("postgresql-backfill", "postgres-cdc-wal"),
            "sqlserver": ("sqlserver-backfill", "sqlserver-cdc"),
        }[source][0 if backfill else 1]
        return json.dumps({
            "stream_name": f"projects/prop/locations/l/streams/{source}",
            "read_method": read_method,
            "object": f"{namespace}_{history.table}",
            "schema_key": "k",
            "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{namespace}/{history.table}/{p}/{half}")),
            "read_timestamp": _datastream_timestamp(change.event_time_ms + rng.randint(1, 5000), rng),
            "source_timestamp": _datastream_timestamp(seconds, rng),
            "sort_keys": [seconds, *position],
            "source_metadata": metadata,
            "payload": image,
        })

    for change in history.changes:
        if change.op == "insert":
            backfill = change.key not in seen and rng.random() < 0.4
            seen.add(change.key)
            out.append(event(change, None if backfill and rng.random() < 0.5 else "INSERT", change.after,
                             backfill=backfill))
        elif change.op == "delete":
            out.append(event(change, "DELETE", change.before))
        elif change.op == "update":
            seen.add(change.after["id"])
            key_changed = change.before["id"] != change.after["id"]
            if key_changed or source in ("mysql", "oracle"):
                out.append(event(change, "UPDATE-DELETE", change.before, half="old"))
                out.append(event(change, "UPDATE-INSERT", change.after, half="new"))
            else:
                out.append(event(change, "UPDATE", change.after))
    return out
