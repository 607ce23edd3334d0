"""Land raw CDC message files as rows of a landing table (one row per message, with lineage).

A file is read line by line (JSON lines; blank lines are not messages). Each line keeps its
file (``origin``) and 1-based line number (``origin_offset``). An Avro container file (e.g.
Datastream's Avro variant) is decoded into one JSON message per record, numbered 1, 2, … in
the file (python_udfs/pipeline/avro_messages.py). Landing is idempotent: lines
whose ``(origin, origin_offset)`` are already in the table are skipped, so landing the same
file twice adds nothing and a file that grew lands only its new lines.

Binary formats (``dts_avro``: one schemaless Avro record per Kafka message value) land as
Base64 text of the message bytes, from either layout a Kafka consumer dump produces:

* Base64 lines (``.b64``, ``.base64``, or any JSON-lines suffix): one message per line, read
  like JSON lines; ``origin_offset`` is the line number.
* Length-prefixed frames (``.dtsavro``, ``.bin``): each message is a 4-byte big-endian
  unsigned length followed by that many bytes; ``origin_offset`` is the 1-based frame number.
  A last frame cut short lands as it is (and is quarantined downstream).

Parsing is kept apart from I/O: :func:`read_messages` and :func:`read_framed_messages` are
pure and tested on their own.
"""

from __future__ import annotations

import base64
import datetime as dt
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

MESSAGE_SUFFIXES = {".jsonl", ".json", ".ndjson", ".txt", ".log", ".avro"}
BASE64_SUFFIXES = {".b64", ".base64"}
FRAMED_SUFFIXES = {".dtsavro", ".bin"}
# Formats whose messages are bytes (registry payload 'avro', macros/formats/_registry.sql).
BINARY_FORMATS = {"dts_avro"}


@dataclass(frozen=True)
class Message:
    line_number: int
    text: str


@dataclass
class LandingResult:
    format_id: str
    table: str
    batch_id: str
    landed_at: dt.datetime
    files: int = 0
    messages_read: int = 0
    messages_landed: int = 0

    @property
    def messages_skipped(self) -> int:
        return self.messages_read - self.messages_landed


def read_messages(data: bytes) -> Iterator[Message]:
    """Messages of a JSON-lines file: one per non-blank line, with its 1-based line number.

    Bytes that are not UTF-8 are replaced (U+FFFD) so the line still lands and is quarantined
    downstream instead of stopping the landing.
    """
    for number, raw_line in enumerate(data.split(b"\n"), start=1):
        line = raw_line.rstrip(b"\r")
        if not line.strip():
            continue
        yield Message(number, line.decode("utf-8", errors="replace"))


def read_framed_messages(data: bytes) -> Iterator[Message]:
    """Messages of a length-prefixed file (4-byte big-endian length, then the bytes), as
    Base64 text, numbered from 1. A frame cut short is kept as the bytes that are there."""
    offset, number = 0, 0
    while offset < len(data):
        number += 1
        if len(data) - offset < 4:
            body, offset = data[offset:], len(data)
        else:
            size = int.from_bytes(data[offset : offset + 4], "big")
            body = data[offset + 4 : offset + 4 + size]
            offset += 4 + size
        yield Message(number, base64.b64encode(body).decode("ascii"))


def read_file_messages(path: Path, format_id: str) -> list[Message]:
    """The messages of one landing file, by the format's payload and the file's layout:
    length-prefixed binary frames, Avro container records (as JSON lines), or text lines."""
    from .avro_messages import is_avro_container, read_avro_records

    data = path.read_bytes()
    if format_id in BINARY_FORMATS and path.suffix in FRAMED_SUFFIXES:
        return list(read_framed_messages(data))
    if is_avro_container(data):
        return [Message(number, text) for number, text in read_avro_records(data)]
    return list(read_messages(data))


def message_files(paths: Iterable[Path], format_id: str | None = None) -> list[Path]:
    """Expand directories into their message files (sorted), keep files as given."""
    suffixes = MESSAGE_SUFFIXES | (BASE64_SUFFIXES | FRAMED_SUFFIXES if format_id in BINARY_FORMATS else set())
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file() and p.suffix in suffixes and not p.name.startswith(".")
                )
            )
        elif path.is_file():
            found.append(path)
        else:
            raise FileNotFoundError(f"no such file or directory: {path}")
    return found


def origin_name(path: Path, project_dir: Path) -> str:
    """Lineage name of a file: relative to the project when inside it, else absolute."""
    resolved = path.resolve()
    try:
        return str(resolved.relative_to(project_dir.resolve()))
    except ValueError:
        return str(resolved)


def land_files(
    spark: SparkSession,
    format_id: str,
    paths: Iterable[Path],
    *,
    project_dir: Path,
    landing_schema: str = "cdc_landing",
    stream_name: str | None = None,
    scratch_dir: Path | None = None,
    progress: bool = True,
) -> LandingResult:
    """Land every message of ``paths`` into ``<landing_schema>.raw_<format_id>``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = f"{landing_schema}.raw_{format_id}"
    if not spark.catalog.tableExists(table):
        raise SystemExit(
            f"landing table {table} does not exist: is '{format_id}' listed in "
            "var('cdc_formats') in dbt_project.yml?"
        )
    files = message_files(paths, format_id)
    # Landing time is the batch's identity in the pipeline: keep it strictly increasing.
    latest = spark.sql(f"select max(landed_at) as latest from {table}").first()
    landed_at = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    if latest and latest["latest"] is not None and latest["latest"] >= landed_at:
        landed_at = latest["latest"] + dt.timedelta(microseconds=1)
    result = LandingResult(format_id, table, uuid.uuid4().hex, landed_at)

    scratch_root = scratch_dir or Path(tempfile.gettempdir())
    scratch_root.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f"landing-{format_id}-", dir=scratch_root))
    try:
        writer = None
        for path in files:
            messages = read_file_messages(path, format_id)
            origin = origin_name(path, project_dir)
            batch = pa.table(
                {
                    "raw_value": pa.array([m.text for m in messages], pa.string()),
                    "stream_name": pa.array([stream_name or format_id] * len(messages), pa.string()),
                    "origin": pa.array([origin] * len(messages), pa.string()),
                    "origin_partition": pa.nulls(len(messages), pa.int32()),
                    "origin_offset": pa.array([m.line_number for m in messages], pa.int64()),
                    "origin_timestamp": pa.nulls(len(messages), pa.timestamp("us")),
                    "landed_at": pa.array([landed_at] * len(messages), pa.timestamp("us")),
                    "landing_batch_id": pa.array([result.batch_id] * len(messages), pa.string()),
                }
            )
            if writer is None:
                writer = pq.ParquetWriter(scratch / "batch.parquet", batch.schema)
            writer.write_table(batch)
            result.files += 1
            result.messages_read += len(messages)
            if progress:
                print(f"  read {origin}: {len(messages)} messages", flush=True)
        if writer is None:
            return result
        writer.close()

        incoming = spark.read.parquet(str(scratch))
        incoming.createOrReplaceTempView("cdc_landing_incoming")
        # Keep only lines not landed before (semi join first: the big side is filtered
        # to the files of this batch before the anti join).
        new_rows = spark.sql(
            f"""
            select incoming.*
            from cdc_landing_incoming as incoming
            left anti join (
                select existing.origin, existing.origin_offset
                from {table} as existing
                left semi join (select distinct origin from cdc_landing_incoming) as files
                    on existing.origin = files.origin
            ) as landed
                on incoming.origin = landed.origin
                and incoming.origin_offset = landed.origin_offset
            """
        )
        columns = [field.name for field in spark.table(table).schema.fields]
        new_rows = new_rows.select(*columns).cache()
        result.messages_landed = new_rows.count()
        if result.messages_landed:
            new_rows.write.insertInto(table)
        new_rows.unpersist()
        spark.catalog.dropTempView("cdc_landing_incoming")
        return result
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def default_landing_paths(project_dir: Path, format_ids: Iterable[str]) -> dict[str, list[Path]]:
    """``landing/<format>/`` of every format that has such a folder."""
    root = project_dir / "landing"
    return {
        format_id: [root / format_id]
        for format_id in format_ids
        if (root / format_id).is_dir()
    }


def environment_defaults(project_dir: Path) -> None:
    """Absolute defaults for the profile's env vars, so any working directory works."""
    local = project_dir / ".cdc_local"
    os.environ.setdefault("CDC_LOCAL_DIR", str(local))
    os.environ.setdefault("CDC_LOG4J_CONFIG", str(project_dir / "profiles" / "log4j2.properties"))
    os.environ.setdefault("DBT_PROFILES_DIR", str(project_dir / "profiles"))
