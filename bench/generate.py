"""Realistic synthetic CDC streams for the benchmark, deterministic by seed.

One *logical* stream per format (several tables, inserts, updates and deletes concentrated on
hot keys, re-inserts of deleted keys, multi-row statements, a few DDL and heartbeats) is
encoded by that format's writer into landing files, and the generator keeps the final state
it implies, in each format's canonical value text, so a build can be checked against it.

    python -m bench.generate --out bench/work/stream --messages 100000 --formats canal,debezium

Layout of the output (one folder per table, as one Kafka topic per table would give):

    <out>/<batch>/<format>/<table>/part-00000.jsonl      row changes and DDL of that table
    <out>/<batch>/<format>/_control/part-00000.jsonl     heartbeats (formats that have them)
    <out>/expected.json                                  message counts and final state summary

Adding a format = one writer class below (``FORMAT_WRITERS``): ``encode(statement)`` returns
the message lines of one logical statement, ``canonical(table, row)`` the image the
pipeline must end with, ``table_id(table)`` and ``primary_keys()`` what the build needs.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import hashlib
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

BASE_MS = 1_700_000_000_000
FILE_LINES = 100_000  # messages per landing file (the landing tool reads a file at once)

# ---------------------------------------------------------------------------------------------
# The logical model: tables, rows and statements, format-neutral.
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    name: str
    kind: str  # int | text | decimal | timestamp | bytes


@dataclass
class Table:
    name: str
    key: tuple[str, ...]
    columns: list[Column]
    weight: float
    added: int = 0  # columns added by DDL so far

    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]


def base_tables() -> list[Table]:
    """The tables of every stream (fresh objects: DDL adds columns to them)."""
    return [
        Table(
            "orders",
            ("order_id",),
            [
                Column("order_id", "int"),
                Column("customer_id", "int"),
                Column("status", "text"),
                Column("amount", "decimal"),
                Column("created_at", "timestamp"),
                Column("note", "bytes"),
            ],
            0.40,
        ),
        Table(
            "order_items",
            ("order_id", "line_no"),
            [
                Column("order_id", "int"),
                Column("line_no", "int"),
                Column("sku", "text"),
                Column("quantity", "int"),
                Column("price", "decimal"),
            ],
            0.25,
        ),
        Table(
            "customers",
            ("customer_id",),
            [
                Column("customer_id", "int"),
                Column("name", "text"),
                Column("email", "text"),
                Column("city", "text"),
                Column("updated_at", "timestamp"),
            ],
            0.15,
        ),
        Table(
            "inventory",
            ("sku",),
            [
                Column("sku", "text"),
                Column("warehouse", "text"),
                Column("on_hand", "int"),
                Column("updated_at", "timestamp"),
            ],
            0.20,
        ),
    ]


# A row: column -> typed value (int, str, or for timestamps epoch milliseconds as int, for
# bytes the raw bytes). Keys are tuples of the key columns' values.
Row = dict


@dataclass
class Statement:
    """One source statement: a row change on 1..n rows, a DDL, or a heartbeat."""

    kind: str  # insert | update | delete | ddl | heartbeat
    table: Table | None
    time_ms: int
    position: int  # strictly increasing per stream
    rows: list[Row] = field(default_factory=list)  # after images (insert, update) / deleted rows
    befores: list[Row] = field(default_factory=list)  # update: before images
    ddl_column: Column | None = None


STATUSES = ["new", "paid", "packed", "shipped", "delivered", "returned", "cancelled"]
CITIES = ["Hangzhou", "Shanghai", "Beijing", "Shenzhen", "Chengdu", "Berlin", "Lisbon", "Austin"]
WAREHOUSES = ["wh-east", "wh-west", "wh-north", "wh-south"]
FIRST = ["Ann", "Bo", "Chen", "Dana", "Eli", "Fay", "Gus", "Hui", "Ivo", "Jun", "Kai", "Lea"]
LAST = ["Li", "Wang", "Zhang", "Smith", "Garcia", "Muller", "Silva", "Kim", "Ito", "Rossi"]


class LogicalStream:
    """Statements of one source database, with the state they leave behind."""

    def __init__(self, seed: int, stream: str) -> None:
        digest = hashlib.sha256(f"{seed}:{stream}".encode()).digest()
        self.rng = random.Random(int.from_bytes(digest[:8], "big"))
        self.tables = base_tables()
        self.weights = [t.weight for t in self.tables]
        self.position = 0
        self.time_ms = BASE_MS
        # live rows per table: key -> row; plus an index list for O(1) random choice
        self.live: dict[str, dict[tuple, Row]] = {t.name: {} for t in self.tables}
        self.live_keys: dict[str, list[tuple]] = {t.name: [] for t in self.tables}
        self.live_index: dict[str, dict[tuple, int]] = {t.name: {} for t in self.tables}
        self.deleted: dict[str, list[tuple]] = {t.name: [] for t in self.tables}
        self.next_id: dict[str, int] = {t.name: 1 for t in self.tables}
        self.hot: dict[str, list[tuple]] = {t.name: [] for t in self.tables}
        self.order_lines: dict[int, int] = {}

    # -- state bookkeeping ----------------------------------------------------------------
    def _add(self, table: Table, key: tuple, row: Row) -> None:
        self.live[table.name][key] = row
        self.live_index[table.name][key] = len(self.live_keys[table.name])
        self.live_keys[table.name].append(key)
        if len(self.hot[table.name]) < 64:
            self.hot[table.name].append(key)

    def _remove(self, table: Table, key: tuple) -> None:
        del self.live[table.name][key]
        keys = self.live_keys[table.name]
        index = self.live_index[table.name].pop(key)
        last = keys.pop()
        if index < len(keys):
            keys[index] = last
            self.live_index[table.name][last] = index

    def _pick_live(self, table: Table) -> tuple | None:
        keys = self.live_keys[table.name]
        if not keys:
            return None
        hot = [k for k in self.hot[table.name] if k in self.live_index[table.name]]
        # 60% of updates and deletes hit the 64 hottest keys of the table
        if hot and self.rng.random() < 0.6:
            return hot[self.rng.randrange(len(hot))]
        return keys[self.rng.randrange(len(keys))]

    # -- values --------------------------------------------------------------------------
    def _value(self, table: Table, column: Column, key_values: dict) -> object:
        rng = self.rng
        if column.name in key_values:
            return key_values[column.name]
        if column.kind == "int":
            if column.name == "customer_id":
                return rng.randrange(1, 50_000)
            return rng.randrange(0, 1_000)
        if column.kind == "decimal":
            return f"{rng.randrange(100, 1_000_000) / 100:.2f}"
        if column.kind == "timestamp":
            return self.time_ms - rng.randrange(0, 86_400_000)
        if column.kind == "bytes":
            return f"gift note {rng.randrange(1_000_000)}".encode()
        name = column.name
        if name == "status":
            return STATUSES[rng.randrange(len(STATUSES))]
        if name == "city":
            return CITIES[rng.randrange(len(CITIES))]
        if name == "warehouse":
            return WAREHOUSES[rng.randrange(len(WAREHOUSES))]
        if name == "name":
            return f"{FIRST[rng.randrange(len(FIRST))]} {LAST[rng.randrange(len(LAST))]}"
        if name == "email":
            return f"user{rng.randrange(1_000_000)}@example.com"
        if name == "sku":
            return f"SKU-{rng.randrange(100_000):06d}"
        return f"{name}-{rng.randrange(10_000)}"

    def _new_key(self, table: Table) -> tuple:
        if self.deleted[table.name] and self.rng.random() < 0.05:
            deleted = self.deleted[table.name]
            return deleted.pop(self.rng.randrange(len(deleted)))
        number = self.next_id[table.name]
        self.next_id[table.name] = number + 1
        if table.name == "order_items":
            order_id = 1 + (number - 1) // 3
            return (order_id, 1 + (number - 1) % 3)
        if table.name == "inventory":
            return (f"SKU-{number:06d}",)
        return (number,)

    def _full_row(self, table: Table, key: tuple) -> Row:
        key_values = dict(zip(table.key, key))
        return {c.name: self._value(table, c, key_values) for c in table.columns}

    # -- statements ----------------------------------------------------------------------
    def next_statement(self, heartbeat_every: int, ddl_every: int) -> Statement:
        rng = self.rng
        self.position += 1
        self.time_ms += rng.randrange(0, 40)
        if heartbeat_every and self.position % heartbeat_every == 0:
            return Statement("heartbeat", None, self.time_ms, self.position)
        table = rng.choices(self.tables, self.weights)[0]
        if ddl_every and self.position % ddl_every == 0 and table.added < 3:
            table.added += 1
            column = Column(f"extra_{table.added}", "text")
            table.columns.append(column)
            return Statement("ddl", table, self.time_ms, self.position, ddl_column=column)
        draw = rng.random()
        live = len(self.live_keys[table.name])
        if draw < 0.45 or live < 10:
            count = 1 if rng.random() < 0.9 else rng.randrange(2, 4)
            rows = []
            for _ in range(count):
                key = self._new_key(table)
                if key in self.live_index[table.name]:
                    continue
                row = self._full_row(table, key)
                self._add(table, key, row)
                rows.append(row)
            if not rows:  # every drawn key was live: fall back to a fresh one
                key = self._new_key(table)
                while key in self.live_index[table.name]:
                    key = self._new_key(table)
                row = self._full_row(table, key)
                self._add(table, key, row)
                rows.append(row)
            return Statement("insert", table, self.time_ms, self.position, rows=rows)
        key = self._pick_live(table)
        if draw < 0.90:
            before = self.live[table.name][key]
            after = dict(before)
            changeable = [c for c in table.columns if c.name not in table.key]
            for column in rng.sample(changeable, k=min(len(changeable), rng.randrange(1, 4))):
                after[column.name] = self._value(table, column, {})
            for column in table.columns:  # rows written after a DDL carry the new columns
                if column.name not in after:
                    after[column.name] = self._value(table, column, {})
            self.live[table.name][key] = after
            return Statement("update", table, self.time_ms, self.position, rows=[after], befores=[before])
        row = self.live[table.name][key]
        self._remove(table, key)
        self.deleted[table.name].append(key)
        return Statement("delete", table, self.time_ms, self.position, rows=[row])

    def final_state(self) -> dict[str, dict[tuple, Row]]:
        return self.live


# ---------------------------------------------------------------------------------------------
# Format writers: logical statement -> message lines; row -> canonical image text.
# ---------------------------------------------------------------------------------------------


def ms_text(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class FormatWriter:
    format_id = ""
    database = ""
    has_heartbeats = True

    def table_id(self, table: Table) -> str:
        return f"{self.database}.{table.name}"

    def column_name(self, name: str) -> str:
        """A column's name in the canonical image."""
        return name

    def primary_keys(self, tables: Iterable[Table]) -> dict[str, list[str]]:
        """``var('cdc_primary_keys')`` entries the format needs (messages without keys)."""
        return {}

    def encode(self, statement: Statement) -> list[str]:
        raise NotImplementedError

    def canonical(self, table: Table, row: Row) -> dict[str, str]:
        raise NotImplementedError


class CanalWriter(FormatWriter):
    """Canal FlatMessage JSON (values as text, `old` = previous values of changed columns)."""

    format_id = "canal"
    database = "canal_shop"
    MYSQL = {"int": "int(11)", "text": "varchar(64)", "decimal": "decimal(12,2)", "timestamp": "datetime(3)", "bytes": "varbinary(64)"}
    SQLTYPE = {"int": 4, "text": 12, "decimal": 3, "timestamp": 93, "bytes": -3}

    def value(self, column: Column, value: object) -> str:
        if column.kind == "timestamp":
            return ms_text(value)
        if column.kind == "bytes":
            return value.decode("latin-1")
        return str(value)

    def canonical(self, table: Table, row: Row) -> dict[str, str]:
        # binary columns: sent as ISO-8859-1 text, canonical as Base64 of the bytes (canal.md)
        columns = {c.name: c for c in table.columns}
        return {
            name: base64.b64encode(v).decode() if columns[name].kind == "bytes" and v is not None
            else self.value(columns[name], v)
            for name, v in row.items()
        }

    def encode(self, s: Statement) -> list[str]:
        base = {"database": self.database, "es": s.time_ms, "id": s.position, "ts": s.time_ms + 400}
        if s.kind == "heartbeat":
            return [dumps({"data": None, "database": "", "es": s.time_ms, "id": s.position, "isDdl": False,
                           "mysqlType": None, "old": None, "pkNames": None, "sql": "", "sqlType": None,
                           "table": "", "ts": s.time_ms + 400, "type": "MHEARTBEAT"})]
        table = s.table
        if s.kind == "ddl":
            sql = f"ALTER TABLE `{table.name}` ADD COLUMN `{s.ddl_column.name}` varchar(64) NULL"
            return [dumps({"data": None, **base, "isDdl": True, "mysqlType": None, "old": None,
                           "pkNames": None, "sql": sql, "sqlType": None, "table": table.name, "type": "ALTER"})]
        columns = {c.name: c for c in table.columns}
        names = [c.name for c in table.columns]
        data = [{n: self.value(columns[n], row[n]) for n in names if n in row} for row in s.rows]
        old = None
        if s.kind == "update":
            old = [
                {n: self.value(columns[n], before[n]) if n in before else None for n in names if before.get(n) != after.get(n)}
                for before, after in zip(s.befores, s.rows)
            ]
        message = {
            "data": data,
            **base,
            "isDdl": False,
            "mysqlType": {n: self.MYSQL[columns[n].kind] for n in names},
            "old": old,
            "pkNames": list(table.key),
            "sql": "",
            "sqlType": {n: self.SQLTYPE[columns[n].kind] for n in names},
            "table": table.name,
            "type": s.kind.upper(),
        }
        return [dumps(message)]


class DebeziumWriter(FormatWriter):
    """Debezium MySQL connector, JSON converter without schemas (bare payload); keys from vars."""

    format_id = "debezium"
    database = "dbz_shop"

    def primary_keys(self, tables: Iterable[Table]) -> dict[str, list[str]]:
        return {self.table_id(t): list(t.key) for t in tables}

    def value(self, column: Column, value: object) -> object:
        if column.kind == "bytes":
            return base64.b64encode(value).decode()
        return value  # ints and epoch-ms timestamps as JSON numbers, decimals as strings

    def canonical(self, table: Table, row: Row) -> dict[str, str]:
        columns = {c.name: c for c in table.columns}
        return {name: str(self.value(columns[name], v)) for name, v in row.items()}

    def source(self, s: Statement, table: str | None) -> dict:
        return {"version": "2.7.3.Final", "connector": "mysql", "name": "bench", "ts_ms": s.time_ms,
                "snapshot": "false", "db": self.database, "sequence": None, "table": table,
                "server_id": 184054, "gtid": None, "file": "mysql-bin.000003", "pos": 4 + s.position * 10,
                "row": 0, "thread": 7, "query": None}

    def encode(self, s: Statement) -> list[str]:
        if s.kind == "heartbeat":
            return [dumps({"ts_ms": s.time_ms})]
        table = s.table
        if s.kind == "ddl":
            ddl = f"ALTER TABLE {table.name} ADD COLUMN {s.ddl_column.name} varchar(64) NULL"
            return [dumps({"source": self.source(s, table.name), "ts_ms": s.time_ms + 20, "databaseName": self.database,
                           "schemaName": None, "ddl": ddl,
                           "tableChanges": [{"type": "ALTER", "id": f'"{self.database}"."{table.name}"'}]})]
        columns = {c.name: c for c in table.columns}

        def image(row: Row) -> dict:
            return {n: self.value(columns[n], v) for n, v in row.items()}

        lines = []
        for index, row in enumerate(s.rows):
            source = self.source(s, table.name)
            source["row"] = index
            if s.kind == "insert":
                before, after, op = None, image(row), "c"
            elif s.kind == "update":
                before, after, op = image(s.befores[index]), image(row), "u"
            else:
                before, after, op = image(row), None, "d"
            lines.append(dumps({"before": before, "after": after, "source": source, "op": op,
                                "ts_ms": s.time_ms + 20, "transaction": None}))
        return lines


class DataWorksWriter(FormatWriter):
    """DataWorks / DataHub Blob JSON: typed columns; updates mostly as two messages."""

    format_id = "dataworks"
    database = "dw_shop"
    TYPES = {"int": "LONG", "text": "STRING", "decimal": "STRING", "timestamp": "DATE", "bytes": "BYTES"}

    def __init__(self) -> None:
        self.split_updates = 0

    def value(self, column: Column, value: object) -> object:
        if column.kind == "bytes":
            return base64.b64encode(value).decode()
        return value

    def canonical(self, table: Table, row: Row) -> dict[str, str]:
        columns = {c.name: c for c in table.columns}
        out = {}
        for name, v in row.items():
            kind = columns[name].kind
            out[name] = ms_text(v) if kind == "timestamp" else str(self.value(columns[name], v))
        return out

    def encode(self, s: Statement) -> list[str]:
        sequence = str(1_700_000_000_000_000_000 + s.position * 10)
        stamp = {"eventTime": s.time_ms, "systemTime": s.time_ms + 700, "checkpointTime": s.time_ms}
        if s.kind == "heartbeat":
            return [dumps({"schema": {}, "payload": {"op": "MHEARTBEAT", "timestamp": stamp}, "version": "0.0.1"})]
        table = s.table
        source = {"dbType": "MySQL", "dbName": self.database, "tableName": table.name}
        if s.kind == "ddl":
            text = f"alter table {table.name} add column {s.ddl_column.name} varchar(64)"
            return [dumps({"schema": {"source": source}, "payload": {"op": "ALTER", "sequenceId": sequence,
                                                                      "ddl": {"text": text}, "timestamp": stamp},
                           "version": "0.0.1"})]
        columns = {c.name: c for c in table.columns}
        schema = {"dataColumn": [{"name": c.name, "type": self.TYPES[c.kind]} for c in table.columns],
                  "primaryKey": list(table.key), "source": source}

        def image(row: Row) -> dict:
            return {"dataColumn": {n: self.value(columns[n], v) for n, v in row.items()}}

        def message(op: str, seq: str, before: dict | None, after: dict | None) -> str:
            payload = {"before": before, "after": after, "sequenceId": seq, "op": op, "timestamp": stamp, "ddl": None}
            return dumps({"schema": schema, "payload": payload, "version": "0.0.1"})

        lines = []
        for index, row in enumerate(s.rows):
            seq = str(int(sequence) + index)
            if s.kind == "insert":
                lines.append(message("INSERT", seq, None, image(row)))
            elif s.kind == "delete":
                lines.append(message("DELETE", seq, image(row), None))
            else:
                self.split_updates += 1
                if self.split_updates % 4:  # three in four updates arrive as two messages
                    lines.append(message("UPDATE_BEFOR", seq, image(s.befores[index]), None))
                    lines.append(message("UPDATE_AFTER", seq, None, image(row)))
                else:
                    lines.append(message("UPDATE_AFTER", seq, image(s.befores[index]), image(row)))
        return lines


class DataHubTupleWriter(FormatWriter):
    """DataHub Tuple records: user columns + meta columns; updates as two records."""

    format_id = "datahub_tuple"
    database = "tuple_shop"
    has_heartbeats = False

    def primary_keys(self, tables: Iterable[Table]) -> dict[str, list[str]]:
        return {self.table_id(t): list(t.key) for t in tables}

    def value(self, column: Column, value: object) -> object:
        if column.kind == "bytes":
            return base64.b64encode(value).decode()
        if column.kind == "timestamp":
            return ms_text(value)
        return value

    def canonical(self, table: Table, row: Row) -> dict[str, str]:
        columns = {c.name: c for c in table.columns}
        return {name: str(self.value(columns[name], v)) for name, v in row.items()}

    def encode(self, s: Statement) -> list[str]:
        if s.kind in ("heartbeat", "ddl"):
            return []  # Tuple topics carry neither
        table = s.table
        columns = {c.name: c for c in table.columns}
        table_id = self.table_id(table)

        def record(row: Row, seq: int, op: str, before: str, after: str) -> str:
            body = {n: self.value(columns[n], v) for n, v in row.items()}
            body.update({"_sequence_id_": str(1_650_000_000_000_000_000 + seq), "_operation_type_": op,
                         "_excute_time_": s.time_ms, "_source_table_": table_id,
                         "_before_image_": before, "_after_image_": after})
            return dumps(body)

        lines = []
        for index, row in enumerate(s.rows):
            seq = s.position * 10 + index
            if s.kind == "insert":
                lines.append(record(row, seq, "I", "N", "Y"))
            elif s.kind == "delete":
                lines.append(record(row, seq, "D", "Y", "N"))
            else:
                lines.append(record(s.befores[index], seq, "U", "Y", "N"))
                lines.append(record(row, seq, "U", "N", "Y"))
        return lines


class SharePlexWriter(FormatWriter):
    """SharePlex JSON (DTS): `upd` carries the before image in `key`, changed columns in `data`."""

    format_id = "shareplex"
    database = "SPX"

    def table_id(self, table: Table) -> str:
        return f"{self.database}.{table.name.upper()}"

    def column_name(self, name: str) -> str:
        return name.upper()

    def primary_keys(self, tables: Iterable[Table]) -> dict[str, list[str]]:
        return {self.table_id(t): [k.upper() for k in t.key] for t in tables}

    def value(self, column: Column, value: object) -> str:
        if column.kind == "timestamp":
            return ms_text(value)
        if column.kind == "bytes":
            return base64.b64encode(value).decode()
        return str(value)

    def canonical(self, table: Table, row: Row) -> dict[str, str]:
        columns = {c.name: c for c in table.columns}
        return {name.upper(): self.value(columns[name], v) for name, v in row.items()}

    def encode(self, s: Statement) -> list[str]:
        if s.kind in ("heartbeat", "ddl"):
            return []  # DTS SharePlex JSON carries neither (dropcol only, not generated)
        table = s.table
        columns = {c.name: c for c in table.columns}
        stamp = dt.datetime.fromtimestamp(s.time_ms / 1000, dt.timezone.utc)

        def image(row: Row, names: Iterable[str]) -> dict:
            return {n.upper(): self.value(columns[n], row[n]) for n in names}

        lines = []
        op = {"insert": "ins", "update": "upd", "delete": "del"}[s.kind]
        for index, row in enumerate(s.rows):
            meta = {"time": stamp.strftime("%Y-%m-%dT%H:%M:%S"), "userid": 84, "op": op,
                    "scn": str(14_589_063_200_000 + s.position), "rowid": f"AAAR{s.position:012d}{index}",
                    "trans": f"{s.position % 97}.{s.position % 13}.{s.position}", "seq": index + 1,
                    "size": len(s.rows), "table": self.table_id(table), "idx": f"{index + 1}/{len(s.rows)}",
                    "posttime": (stamp + dt.timedelta(seconds=2)).strftime("%Y-%m-%dT%H:%M:%S")}
            message = {"meta": meta}
            if s.kind == "update":
                before = s.befores[index]
                changed = [n for n in row if before.get(n) != row.get(n)]
                message["data"] = image(row, changed)
                message["key"] = image(before, before.keys())
            else:
                message["data"] = image(row, row.keys())
            lines.append(dumps(message))
        return lines


FORMAT_WRITERS: dict[str, type[FormatWriter]] = {
    w.format_id: w for w in (DataWorksWriter, DataHubTupleWriter, CanalWriter, DebeziumWriter, SharePlexWriter)
}


# ---------------------------------------------------------------------------------------------
# Driver: sizes, batches, files, expected state.
# ---------------------------------------------------------------------------------------------


class PartWriter:
    """Writes lines to <dir>/part-NNNNN.jsonl, ``file_lines`` per file (0: one file)."""

    def __init__(self, directory: Path, file_lines: int = FILE_LINES) -> None:
        self.directory = directory
        self.file_lines = file_lines
        self.part = 0
        self.lines = 0
        self.handle = None

    def write(self, line: str) -> None:
        if self.handle is None or (self.file_lines and self.lines >= self.file_lines):
            self.close()
            self.directory.mkdir(parents=True, exist_ok=True)
            self.handle = open(self.directory / f"part-{self.part:05d}.jsonl", "w", encoding="utf-8")
            self.part += 1
            self.lines = 0
        self.handle.write(line)
        self.handle.write("\n")
        self.lines += 1

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None


@dataclass
class FormatResult:
    format_id: str
    messages: list[int]  # per batch
    statements: int
    table_ids: list[str]
    primary_keys: dict[str, list[str]]
    live_rows: dict[str, int]
    # table_id -> {"columns": base columns as named in the images, "live_rows", "checksum"}
    checksums: dict[str, dict] = field(default_factory=dict)
    # table_id -> {key tuple (as text) -> canonical image}; only kept when asked (tests)
    final_state: dict[str, dict[tuple, dict[str, str]]] | None = None


def row_checksum(text: str) -> int:
    """The checksum term of one final row (the same in bench/run.py's SQL and the Flink peer)."""
    digest = hashlib.md5(text.encode("utf-8")).hexdigest()
    return sum(ord(digest[i]) * 131**i for i in range(4))


def split_counts(total: int, formats: list[str]) -> dict[str, int]:
    share, rest = divmod(total, len(formats))
    return {f: share + (1 if i < rest else 0) for i, f in enumerate(formats)}


def generate_format(
    format_id: str,
    batches: list[int],
    seed: int,
    out: Path | None,
    *,
    keep_state: bool = False,
    heartbeat_every: int = 997,
    ddl_every: int = 50_021,
    file_lines: int = FILE_LINES,
) -> FormatResult:
    """Generate ``sum(batches)`` messages of one format, batch by batch, into ``out``."""
    writer = FORMAT_WRITERS[format_id]()
    stream = LogicalStream(seed, format_id)
    written: list[int] = []
    statements = 0
    for batch_index, target in enumerate(batches):
        parts: dict[str, PartWriter] = {}
        count = 0
        while count < target:
            statement = stream.next_statement(heartbeat_every, ddl_every)
            lines = writer.encode(statement)
            if not lines:
                continue
            statements += 1
            folder = statement.table.name if statement.table is not None else "_control"
            if out is not None:
                part = parts.get(folder)
                if part is None:
                    part = parts[folder] = PartWriter(
                        out / f"batch-{batch_index}" / format_id / folder, file_lines
                    )
                for line in lines:
                    part.write(line)
            count += len(lines)
        for part in parts.values():
            part.close()
        written.append(count)
    tables = stream.tables
    result = FormatResult(
        format_id=format_id,
        messages=written,
        statements=statements,
        table_ids=[writer.table_id(t) for t in tables],
        primary_keys=writer.primary_keys(tables),
        live_rows={writer.table_id(t): len(stream.live[t.name]) for t in tables},
    )
    for base, table in zip(base_tables(), tables):
        names = [writer.column_name(c.name) for c in base.columns]
        total = 0
        for row in stream.live[table.name].values():
            image = writer.canonical(table, row)
            total += row_checksum("|".join(image[n] for n in names))
        result.checksums[writer.table_id(table)] = {
            "columns": names,
            "live_rows": len(stream.live[table.name]),
            "checksum": total,
        }
    if keep_state:
        result.final_state = {
            writer.table_id(t): {
                tuple(str(v) for v in key): writer.canonical(t, row) for key, row in stream.live[t.name].items()
            }
            for t in tables
        }
    return result


def _generate_job(job: dict) -> FormatResult:
    return generate_format(**job)


def generate(
    formats: list[str],
    messages: int,
    seed: int,
    out: Path | None,
    *,
    increment: int = 0,
    keep_state: bool = False,
    heartbeat_every: int = 997,
    ddl_every: int = 50_021,
    file_lines: int = FILE_LINES,
    workers: int = 1,
) -> dict[str, FormatResult]:
    """``messages`` in total, split evenly over ``formats``; then ``increment`` more (batch 1)."""
    unknown = [f for f in formats if f not in FORMAT_WRITERS]
    if unknown:
        raise SystemExit(f"no generator for {unknown}; known: {sorted(FORMAT_WRITERS)}")
    firsts = split_counts(messages, formats)
    seconds = split_counts(increment, formats) if increment else {}
    jobs = {
        format_id: dict(
            format_id=format_id,
            batches=[firsts[format_id]] + ([seconds[format_id]] if increment else []),
            seed=seed, out=out, keep_state=keep_state, heartbeat_every=heartbeat_every,
            ddl_every=ddl_every, file_lines=file_lines,
        )
        for format_id in formats
    }
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            futures = {f: pool.submit(_generate_job, job) for f, job in jobs.items()}
            results = {f: future.result() for f, future in futures.items()}
    else:
        results = {f: generate_format(**job) for f, job in jobs.items()}
    if out is not None:
        summary = {
            "seed": seed,
            "messages": messages,
            "increment": increment,
            "formats": {
                f: {"messages_per_batch": r.messages, "statements": r.statements, "table_ids": r.table_ids,
                    "primary_keys": r.primary_keys, "live_rows": r.live_rows, "checksums": r.checksums}
                for f, r in results.items()
            },
        }
        out.mkdir(parents=True, exist_ok=True)
        (out / "expected.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--messages", type=int, default=100_000, help="messages in total (all formats)")
    parser.add_argument("--increment", type=int, default=0, help="messages of a second batch")
    parser.add_argument("--formats", default=",".join(FORMAT_WRITERS))
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--file-lines", type=int, default=FILE_LINES, help="messages per file, 0: one per table")
    parser.add_argument("--workers", type=int, default=2, help="formats generated in parallel")
    args = parser.parse_args(argv)
    results = generate(
        args.formats.split(","), args.messages, args.seed, args.out, increment=args.increment,
        file_lines=args.file_lines, workers=args.workers,
    )
    for format_id, result in results.items():
        print(f"{format_id}: {result.messages} messages, {sum(result.live_rows.values())} live rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
