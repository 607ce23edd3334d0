"""Land raw CDC message files as rows of a landing table (one row per message, with lineage).

Message lines are read by Spark's own text reader, so landing takes what any Spark job
takes: plain files, ``.gz`` and ``.bz2`` files, directories (searched recursively), glob
patterns, and any filesystem URI the Spark session can read (``file://``, ``hdfs://``, an
object store on a cluster). The lines are not collected into Python: one pass counts the
lines of each file split, a second numbers and writes them, both inside Spark. A small batch of
local, uncompressed text files (at most ``PYTHON_READ_BYTES`` together) is the exception: it is
read here by the reference reader and handed to Spark as one Parquet scratch file, which saves
the counting job's fixed costs.

A file is read line by line (JSON lines; blank lines are not messages). Each line keeps its
file (``origin``: the path relative to the project when inside it, else absolute; a URI for
other filesystems) and 1-based line number (``origin_offset``). Lines end at ``\\n`` (a
trailing ``\\r`` is dropped); bytes that are not UTF-8 are replaced (U+FFFD) so the line still
lands and is quarantined downstream instead of stopping the landing. Landing is idempotent:
lines whose ``(origin, origin_offset)`` are already in the table are skipped, so landing the
same file twice adds nothing and a file that grew lands only its new lines.

A Kafka consumer dump with keys lands one message per record: a line that is a JSON object
starting with ``"topic"`` and carrying ``partition`` and ``offset`` (``kcat -C -J`` output:
``{"topic", "partition", "offset", "tstype", "ts", "broker", "key", "payload"}``) lands its
``payload`` as the message (JSON text; a null payload, a tombstone, as ``null``), its ``key``
as ``message_key``, and the record's own lineage: ``origin`` the topic, ``origin_partition``,
``origin_offset`` the Kafka offset, ``origin_timestamp`` from ``ts`` (milliseconds) and
``stream_name`` ``topic/partition`` (unless ``--stream`` names one). A record already landed
(same topic, partition and offset) adds nothing, from any file.

An Avro container file (e.g. Datastream's Avro variant) is decoded into one JSON message per
record, numbered 1, 2, … in the file (python_udfs/pipeline/avro_messages.py). Binary formats
(``dts_avro``: one schemaless Avro record per Kafka message value) land as Base64 text of the
message bytes, from either layout a Kafka consumer dump produces:

* Base64 lines (``.b64``, ``.base64``, or any JSON-lines suffix): one message per line, read
  like JSON lines; ``origin_offset`` is the line number.
* Length-prefixed frames (``.dtsavro``, ``.bin``): each message is a 4-byte big-endian
  unsigned length followed by that many bytes; ``origin_offset`` is the 1-based frame number.
  A last frame cut short lands as it is (and is quarantined downstream).

These two kinds of file are whole blobs, not lines: they are read into Python and decoded
there. :func:`read_messages` (the reference for what a text file's messages are) and
:func:`read_framed_messages` are pure and tested on their own.
"""

from __future__ import annotations

import base64
import datetime as dt
import glob
import os
import re
import shutil
import tempfile
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import unquote

from .compaction import DEFAULT_FILE_BYTES, DEFAULT_MIN_FILES, compact_small_files
from .table_properties import set_table_properties, table_properties

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

MESSAGE_SUFFIXES = {".jsonl", ".json", ".ndjson", ".txt", ".log", ".avro"}
BASE64_SUFFIXES = {".b64", ".base64"}
FRAMED_SUFFIXES = {".dtsavro", ".bin"}
# Compressed text files Spark's reader (Hadoop codecs) decompresses by their suffix.
COMPRESSED_SUFFIXES = {".gz", ".bz2"}
# Formats whose messages are bytes (registry payload 'avro', macros/formats/_registry.sql).
BINARY_FORMATS = {"dts_avro"}
GLOB_CHARS = set("*?[")
# Characters that make Spark's reader expand a path as a glob pattern.
SPARK_GLOB_CHARS = set("{}[]*?\\")


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

    The reference for the Spark reader (:func:`land_files` reads text files the same way,
    tests hold them equal): bytes that are not UTF-8 are replaced (U+FFFD) so the line still
    lands and is quarantined downstream instead of stopping the landing.
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


def is_framed(name: str, format_id: str | None) -> bool:
    return format_id in BINARY_FORMATS and PurePosixPath(name).suffix in FRAMED_SUFFIXES


def read_blob_messages(data: bytes, name: str, format_id: str | None) -> list[Message] | None:
    """The messages of a file that is a blob, not lines (length-prefixed frames, an Avro
    container), or None for a text file."""
    from .avro_messages import is_avro_container, read_avro_records

    if is_framed(name, format_id):
        return list(read_framed_messages(data))
    if is_avro_container(data):
        return [Message(number, text) for number, text in read_avro_records(data)]
    return None


def read_file_messages(path: Path, format_id: str) -> list[Message]:
    """The messages of one landing file, by the format's payload and the file's layout:
    length-prefixed binary frames, Avro container records (as JSON lines), or text lines."""
    data = path.read_bytes()
    blob = read_blob_messages(data, path.name, format_id)
    return blob if blob is not None else list(read_messages(data))


def is_message_file(name: str, format_id: str | None = None) -> bool:
    """Does a file name look like messages (by suffix; ``.gz``/``.bz2`` after one)? Hidden
    files (``.x``) are not."""
    if name.startswith("."):
        return False
    suffixes = MESSAGE_SUFFIXES | (BASE64_SUFFIXES | FRAMED_SUFFIXES if format_id in BINARY_FORMATS else set())
    path = PurePosixPath(name)
    if path.suffix in COMPRESSED_SUFFIXES:
        path = path.with_suffix("")
    return path.suffix in suffixes


def is_uri(path: Path | str) -> bool:
    """A filesystem URI (``file://``, ``hdfs://``, ``s3a://``, …), as opposed to a local path."""
    return isinstance(path, str) and "://" in path


def message_files(paths: Iterable[Path | str], format_id: str | None = None) -> list[Path]:
    """Local paths to message files: directories expanded (recursively, sorted), glob
    patterns expanded (sorted), files kept as given. URIs are listed by :func:`uri_files`."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found.extend(
                sorted(p for p in path.rglob("*") if p.is_file() and is_message_file(p.name, format_id))
            )
        elif path.is_file():
            found.append(path)
        elif GLOB_CHARS & set(str(given)):
            matches = sorted(Path(m) for m in glob.glob(str(given), recursive=True))
            if not matches:
                raise FileNotFoundError(f"no file matches: {given}")
            found.extend(message_files(matches, format_id))
        else:
            raise FileNotFoundError(f"no such file or directory: {path}")
    return found


def uri_files(spark: SparkSession, uris: Iterable[str], format_id: str | None = None) -> list[str]:
    """The message files of filesystem URIs (globs and directories expanded, recursively),
    listed by the session's Hadoop filesystem, so whatever the cluster reads works."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    found: list[str] = []
    for uri in uris:
        pattern = jvm.org.apache.hadoop.fs.Path(uri)
        filesystem = pattern.getFileSystem(conf)
        statuses = filesystem.globStatus(pattern)
        if not statuses:
            raise FileNotFoundError(f"no such file or directory: {uri}")
        for status in statuses:
            if status.isDirectory():
                listing, files = filesystem.listFiles(status.getPath(), True), []
                while listing.hasNext():
                    path = listing.next().getPath()
                    relative = str(path.toString())[len(str(status.getPath().toString())):]
                    # hidden files and folders, and Hadoop's markers (_SUCCESS, _temporary/)
                    if is_message_file(path.getName(), format_id) and not any(
                        part.startswith((".", "_")) for part in relative.split("/")
                    ):
                        files.append(str(path.toString()))
                found.extend(sorted(files))
            else:
                found.append(str(status.getPath().toString()))
    return found


def origin_name(path: Path, project_dir: Path) -> str:
    """Lineage name of a file: relative to the project when inside it, else absolute."""
    resolved = path.resolve()
    try:
        return str(resolved.relative_to(project_dir.resolve()))
    except ValueError:
        return str(resolved)


def _without_file_scheme(location: str) -> str:
    """``file:/p``, ``file:///p`` or ``file://host/p`` -> ``/p``; other URIs unchanged."""
    if not location.startswith("file:"):
        return location
    path = location[len("file:"):]
    return path[path.index("/", 2):] if path.startswith("//") else path


def spark_file_key(file_path: str) -> str:
    """A file as Spark's reader names it (``_metadata.file_path``: a URI, percent-encoded),
    in the form the landing lists it: a local path for ``file:`` URIs, else the URI decoded."""
    return unquote(_without_file_scheme(file_path))


@dataclass(frozen=True)
class SourceFile:
    """One file to land: how Spark reads it (``location``), how lineage names it."""

    location: str
    origin: str
    key: str  # spark_file_key of the file, to find its lines in what Spark read
    local: bool  # on this machine's filesystem: Python may open it as `key`


def _local_source(path: Path, project_dir: Path) -> SourceFile:
    resolved = path.resolve()
    return SourceFile(str(resolved), origin_name(path, project_dir), str(resolved), True)


def _uri_source(uri: str, project_dir: Path) -> SourceFile:
    key = _without_file_scheme(uri)  # listed by Hadoop: not percent-encoded
    if uri.startswith("file:"):  # a local file named by URI: the same lineage as by path
        return SourceFile(key, origin_name(Path(key), project_dir), key, True)
    return SourceFile(uri, key, key, False)


def _read_head(spark: SparkSession, source: SourceFile, size: int = 4) -> bytes:
    if source.local:
        with open(source.key, "rb") as handle:
            return handle.read(size)
    return _read_bytes(spark, source)[:size]


def _read_bytes(spark: SparkSession, source: SourceFile) -> bytes:
    if source.local:
        return Path(source.key).read_bytes()
    rows = spark.read.format("binaryFile").load(source.location).select("content").collect()
    return bytes(rows[0]["content"]) if rows else b""


def _is_blob(spark: SparkSession, source: SourceFile, format_id: str) -> bool:
    """Read in Python, not by Spark's text reader: frames and Avro containers, and local
    files whose path Spark would take for a glob pattern (``[``, ``*``, ``{`` … in a name)."""
    from .avro_messages import AVRO_MAGIC

    name = PurePosixPath(source.key).name
    if source.local and set(source.location) & SPARK_GLOB_CHARS:
        return True
    if is_framed(name, format_id):
        return True
    if PurePosixPath(name).suffix in COMPRESSED_SUFFIXES:
        return False
    if not source.local and PurePosixPath(name).suffix != ".avro":
        return False  # remote text: no need to open it here
    return _read_head(spark, source) == AVRO_MAGIC


def _text_lines(spark: SparkSession, sources: list[SourceFile]) -> tuple[DataFrame, int, int]:
    """The non-blank lines of text files, numbered per file, as (raw_value, origin,
    origin_offset), how many there are, and how many look like Kafka records.

    Line numbers without moving the lines: Spark reads each file split in order, so a line's
    number is its position in its split plus the lines of the file's earlier splits. A first
    pass counts the lines of each split (a few rows come back); the second adds that base.
    """
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    read = (
        spark.read.option("lineSep", "\n")
        .text([s.location for s in sources])
        .select(
            F.col("value"),
            F.col("_metadata.file_path").alias("file_path"),
            F.col("_metadata.file_block_start").alias("block_start"),
            F.monotonically_increasing_id().alias("position"),
        )
    )
    # Blank as the reference reader has it (bytes.strip(): ASCII whitespace only; `^\s*$`
    # took a line of a Unicode line break alone for blank). Only a line that starts with
    # whitespace is trimmed: a trim copies the line.
    blank = (F.col("value") == "") | (
        F.substring("value", 1, 1).isin(*ASCII_WHITESPACE_CHARS)
        & F.expr(f"trim(BOTH '{ASCII_WHITESPACE}' FROM value) = ''")
    )
    splits = (
        read.groupBy("file_path", "block_start")
        .agg(
            F.min("position").alias("first_position"),
            F.count(F.lit(1)).alias("lines"),
            F.sum(F.when(blank, 0).otherwise(1)).alias("messages"),
            F.sum(F.when(F.col("value").rlike(KAFKA_RECORD_PATTERN), 1).otherwise(0)).alias("records"),
        )
        .collect()
    )
    by_key = {source.key: source for source in sources}
    bases, messages, records, seen = [], 0, 0, {}
    for split in sorted(splits, key=lambda s: (s["file_path"], s["block_start"])):
        source = by_key.get(spark_file_key(split["file_path"]))
        if source is None:  # never guess a lineage: another name would land the file again
            raise RuntimeError(f"Spark read {split['file_path']!r}, which is none of the files listed to land")
        origin = source.origin
        before = seen.get(split["file_path"], 0)
        # line number = position - first_position + 1 + lines of the earlier splits
        bases.append((split["file_path"], split["block_start"], origin, before + 1 - split["first_position"]))
        seen[split["file_path"]] = before + split["lines"]
        messages += split["messages"] or 0
        records += split["records"] or 0
    base_schema = T.StructType([
        T.StructField("file_path", T.StringType()),
        T.StructField("block_start", T.LongType()),
        T.StructField("origin", T.StringType()),
        T.StructField("base", T.LongType()),
    ])
    split_bases = spark.createDataFrame(bases, base_schema)
    valid = F.make_valid_utf8("value")
    lines = (
        read.where(~blank)
        .join(F.broadcast(split_bases), ["file_path", "block_start"])
        .select(
            # trailing CRs dropped (a file with CRLF line ends), as the reference reader does;
            # regexp_replace(..., '\r+$', '') took 2.2 s more per 1M lines (it searches every
            # position, and took a CR before a Unicode line break for a trailing one)
            F.when(valid.endswith("\r"), F.expr("trim(TRAILING '\\r' FROM make_valid_utf8(value))"))
            .otherwise(valid)
            .alias("raw_value"),
            F.col("origin"),
            (F.col("position") + F.col("base")).alias("origin_offset"),
        )
    )
    return lines, messages, records


def _blob_lines(
    spark: SparkSession, sources: list[SourceFile], format_id: str, scratch: Path, progress: bool
) -> tuple[DataFrame | None, int, int]:
    """The messages of files read in Python (blobs: frames, Avro containers; and text files,
    _read_in_python) as a DataFrame of (raw_value, origin, origin_offset) staged through a
    Parquet scratch file, how many there are, and how many may be Kafka records (every blob
    message; the text lines that look like one, as _text_lines counts them)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    writer, count, records, text_files, text_messages = None, 0, 0, 0, 0
    for source in sources:
        data = _read_bytes(spark, source)
        messages = read_blob_messages(data, PurePosixPath(source.key).name, format_id)
        is_text = messages is None
        if is_text:
            messages = list(read_messages(data))
            records += sum(1 for m in messages if KAFKA_RECORD_LINE.match(m.text))
            text_files, text_messages = text_files + 1, text_messages + len(messages)
        else:
            records += len(messages)
        batch = pa.table({
            "raw_value": pa.array([m.text for m in messages], pa.string()),
            "origin": pa.array([source.origin] * len(messages), pa.string()),
            "origin_offset": pa.array([m.line_number for m in messages], pa.int64()),
        })
        if writer is None:
            writer = pq.ParquetWriter(scratch / "blobs.parquet", batch.schema)
        writer.write_table(batch)
        count += len(messages)
        if progress and not is_text:
            print(f"  raw_{format_id}: read {source.origin}: {len(messages)} messages", flush=True)
    if progress and text_files:  # one line, as _land_sources prints for Spark's reader
        print(f"  raw_{format_id}: read {text_files} text files: {text_messages} messages", flush=True)
    if writer is None:
        return None, 0, 0
    writer.close()
    return spark.read.parquet(str(scratch / "blobs.parquet")), count, records


def _read_in_python(texts: list[SourceFile]) -> bool:
    """Whether these text files are read in Python rather than by Spark's text reader: local,
    uncompressed and together at most PYTHON_READ_BYTES (a batch of up to about 60,000
    messages of the benchmark's mix). Spark's reader takes two jobs (the lines of each split
    counted, then numbered), whose fixed costs outweigh reading the bytes here
    (read_messages, the reference reader), a file at a time: batches of five formats landed in
    a warm session in 1.41 s against 2.04 s (1,000 messages), 1.52 against 2.68 s (10,000),
    2.04 against 4.99 s (50,000) and 4.48 against 13.29 s (200,000, 22 MB a format;
    bench/results/2026-12-07-twenty-fifth/). Larger inputs keep Spark's parallel reader. The
    rows are the same either way (the tests land the same awkward files both ways)."""
    if not texts or not all(s.local for s in texts):
        return False
    if any(PurePosixPath(s.key).suffix in COMPRESSED_SUFFIXES for s in texts):
        return False
    total = 0
    for source in texts:
        total += os.path.getsize(source.key)
        if total > PYTHON_READ_BYTES:
            return False
    return True


# A Kafka consumer dump's record line (kcat -J): a JSON object whose first field is `topic`.
KAFKA_RECORD_PATTERN = r'^\s*\{\s*"topic"\s*:'
KAFKA_RECORD_LINE = re.compile(KAFKA_RECORD_PATTERN, re.ASCII)  # \s as Java's: ASCII whitespace
# Local text files of a landing read in Python when they hold no more together (_read_in_python).
PYTHON_READ_BYTES = 32 * 1024 * 1024
# What Python's bytes.strip() removes (the reference reader's blank lines), and the same as
# escapes of a Spark SQL string literal (it knows no \f).
ASCII_WHITESPACE_CHARS = (" ", "\t", "\n", "\r", "\x0b", "\x0c")
ASCII_WHITESPACE = " \\t\\n\\r\\u000B\\u000C"

KAFKA_RECORD_SCHEMA = "topic string, partition int, offset bigint, ts bigint, key string, payload string"


def _kafka_records_unwrapped(
    lines: DataFrame, stream_name: str | None, default_stream: str, may_hold_records: bool
) -> DataFrame:
    """Landing columns of (raw_value, origin, origin_offset) lines, with the Kafka records of
    a consumer dump unwrapped: payload as the message, key, topic/partition/offset lineage.
    Other lines keep their file lineage. A line needs topic, partition and offset to be a
    record; else it is a message like any other (and its format decides whether it is valid).
    ``stream_name`` (--stream) names every line's stream; without it a record's stream is its
    topic/partition and a file line's ``default_stream``.
    """
    from pyspark.sql import functions as F

    if not may_hold_records:  # the common case: no line looked like a record
        return lines.select(
            "raw_value",
            "origin",
            F.lit(None).cast("int").alias("origin_partition"),
            "origin_offset",
            F.lit(None).cast("timestamp").alias("origin_timestamp"),
            F.lit(None).cast("string").alias("message_key"),
            F.lit(stream_name or default_stream).alias("stream_name"),
        )
    record = F.when(F.col("raw_value").rlike(KAFKA_RECORD_PATTERN), F.from_json("raw_value", KAFKA_RECORD_SCHEMA))
    unwrapped = lines.withColumn("record", record).withColumn(
        "is_record",
        F.coalesce(
            F.col("record.topic").isNotNull() & F.col("record.partition").isNotNull() & F.col("record.offset").isNotNull(),
            F.lit(False),
        ),
    )
    is_record = F.col("is_record")
    return unwrapped.select(
        F.when(is_record, F.coalesce(F.col("record.payload"), F.lit("null"))).otherwise(F.col("raw_value")).alias("raw_value"),
        F.when(is_record, F.col("record.topic")).otherwise(F.col("origin")).alias("origin"),
        F.when(is_record, F.col("record.partition")).alias("origin_partition"),
        F.when(is_record, F.col("record.offset")).otherwise(F.col("origin_offset")).alias("origin_offset"),
        F.when(is_record, F.timestamp_millis(F.col("record.ts"))).alias("origin_timestamp"),
        F.when(is_record, F.col("record.key")).alias("message_key"),
        (
            F.lit(stream_name)
            if stream_name is not None
            else F.when(is_record, F.concat_ws("/", F.col("record.topic"), F.col("record.partition").cast("string")))
            .otherwise(F.lit(default_stream))
        ).alias("stream_name"),
    )


def land_files(
    spark: SparkSession,
    format_id: str,
    paths: Iterable[Path | str],
    *,
    project_dir: Path,
    landing_schema: str = "cdc_landing",
    stream_name: str | None = None,
    scratch_dir: Path | None = None,
    progress: bool = True,
    compact_min_files: int = DEFAULT_MIN_FILES,
    compact_file_bytes: int = DEFAULT_FILE_BYTES,
) -> LandingResult:
    """Land every message of ``paths`` (local files, folders, globs or filesystem URIs) into
    ``<landing_schema>.raw_<format_id>``, in one insert; then compact the table once it holds
    ``compact_min_files`` small files (vars ``cdc_compact_min_files``, ``cdc_compact_file_bytes``;
    compaction.py)."""
    table = f"{landing_schema}.raw_{format_id}"
    if not spark.catalog.tableExists(table):
        raise SystemExit(
            f"landing table {table} does not exist: is '{format_id}' listed in "
            "var('cdc_formats') in dbt_project.yml?"
        )
    paths = list(paths)
    listed = [_local_source(p, project_dir) for p in message_files([p for p in paths if not is_uri(p)], format_id)]
    listed += [_uri_source(u, project_dir) for u in uri_files(spark, [p for p in paths if is_uri(p)], format_id)]
    sources = list({source.key: source for source in listed}.values())  # a file named twice lands once
    origins = sorted({s.origin for s in sources})
    # A view of this call's own name: several landings may run at once in one session
    # (land_formats), and a shared name would hand one landing another's files.
    origins_view = f"cdc_landing_origins_{uuid.uuid4().hex}"
    spark.createDataFrame([(o,) for o in origins], "origin string").createOrReplaceTempView(origins_view)
    try:
        result = _land_sources(spark, format_id, table, sources, stream_name, scratch_dir, progress, origins_view)
    finally:
        spark.catalog.dropTempView(origins_view)
    if result.messages_landed:
        compact_quietly(spark, landing_schema, f"raw_{format_id}", compact_min_files, compact_file_bytes, progress)
    return result


# Formats landed at once by land_formats (CDC_LANDING_THREADS overrides it; 1: one after
# another): every format of a call, as there are at most seven. A small batch's landing is
# mostly Spark's fixed cost per statement (a lineage read, a count, an insert, two metadata
# statements per table), which overlaps across tables on two cores: five formats of 200
# messages each landed in 0.91x the time one after another took with 4 threads
# (bench/results/2026-12-01-parallel-landing/), and with all five in 0.91x the time 4 took
# (1.69 against 1.86 s, 12 rounds each, one warm session); 1M messages landed in the same
# time either way (bench/results/2026-12-07-twenty-second/landing-threads.txt).
LANDING_THREADS = 8


def landing_threads() -> int:
    """How many formats land at once: CDC_LANDING_THREADS if set (at least 1), else
    LANDING_THREADS."""
    value = os.environ.get("CDC_LANDING_THREADS", "").strip()
    try:
        return max(1, int(value)) if value else LANDING_THREADS
    except ValueError:
        raise SystemExit(f"CDC_LANDING_THREADS must be a whole number, not {value!r}") from None


def land_formats(
    spark: SparkSession,
    plan: dict[str, list[Path | str]],
    *,
    threads: int | None = None,
    **settings,
) -> dict[str, LandingResult]:
    """Land the files of several formats, each into its own table (land_files with
    ``settings``), up to ``threads`` formats at a time (default: landing_threads()). Each
    format's landing is one insert into its own table and commits on its own, so the order
    does not matter. Returns the results in ``plan``'s order. When a format fails, the others
    still land; the first failure is raised once all have finished."""
    formats = list(plan)
    if not formats:
        return {}
    from concurrent.futures import ThreadPoolExecutor

    # one thread lands them in turn, the same way: a failure waits for the other formats
    workers = min(len(formats), threads or landing_threads())
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cdc-landing") as pool:
        futures = {f: pool.submit(land_files, spark, f, plan[f], **settings) for f in formats}
    errors = [error for error in (future.exception() for future in futures.values()) if error is not None]
    if errors:
        raise errors[0]
    return {f: future.result() for f, future in futures.items()}


def compact_quietly(
    spark: SparkSession, schema: str, name: str, min_files: int, file_bytes: int, progress: bool
) -> None:
    """Compact a landing table if it is fragmented. A compaction that fails changes nothing
    (the table switches to the new files only once they are written): the batch stays landed,
    and the next landing tries again."""
    try:
        done = compact_small_files(spark, schema, name, min_files=min_files, file_bytes=file_bytes)
    except Exception as error:  # noqa: BLE001 - the landing itself succeeded
        print(f"  compaction of {schema}.{name} failed, tried again next time: {error}", flush=True)
        return
    if done and progress:
        print(f"  compacted {done.table}: {done.files_before} files -> {done.files_after}", flush=True)


def _land_sources(
    spark: SparkSession,
    format_id: str,
    table: str,
    sources: list[SourceFile],
    stream_name: str | None,
    scratch_dir: Path | None,
    progress: bool,
    origins_view: str,
) -> LandingResult:
    """land_files' work once the files are listed (their origins in the temporary view
    ``origins_view``)."""
    from pyspark.sql import functions as F

    # What the table already holds, from reads Parquet prunes (lineage_seen): its latest
    # landing time, and whether any of these files, or any Kafka record, landed before (only
    # then do the incoming lines need the anti join below).
    seen = lineage_seen(spark, table, [s.origin for s in sources])
    landed_at = next_landing_time(seen["latest"])
    result = LandingResult(format_id, table, uuid.uuid4().hex, landed_at, files=len(sources))
    if not sources:
        return result

    scratch_root = scratch_dir or Path(tempfile.gettempdir())
    scratch_root.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f"landing-{format_id}-", dir=scratch_root))
    try:
        blobs = [s for s in sources if _is_blob(spark, s, format_id)]
        texts = [s for s in sources if s not in blobs]
        if _read_in_python(texts):
            blobs, texts = blobs + texts, []
        parts, records = [], 0
        if texts:
            lines, count, records = _text_lines(spark, texts)
            parts.append(lines)
            result.messages_read += count
            if progress:
                print(f"  {table}: read {len(texts)} text files: {count} messages", flush=True)
        blob_lines, count, blob_records = _blob_lines(spark, blobs, format_id, scratch, progress)
        if blob_lines is not None:
            parts.append(blob_lines)
            result.messages_read += count
            records += blob_records
        if not result.messages_read:
            return result
        incoming = parts[0] if len(parts) == 1 else parts[0].unionByName(parts[1])
        incoming = _kafka_records_unwrapped(incoming, stream_name, format_id, records > 0)
        if records:  # a record dumped twice (overlapping dumps) lands once
            incoming = incoming.dropDuplicates(["origin", "origin_partition", "origin_offset"])

        # Messages landed before are skipped. File lines: only files landed before need the
        # anti join. Kafka records: any record of the table may be the same record again.
        if seen["files_landed_before"] or (records and seen["records_landed_before"]):
            landed_before = spark.sql(
                f"""
                select existing.origin, existing.origin_partition, existing.origin_offset
                from {table} as existing
                left semi join {origins_view} as files
                    on existing.origin = files.origin
                {"union all select origin, origin_partition, origin_offset from " + table
                 + " where origin_partition is not null" if records else ""}
                """
            )
            before = landed_before.alias("before")
            incoming = incoming.alias("incoming").join(
                before,
                (F.col("incoming.origin") == F.col("before.origin"))
                & F.col("incoming.origin_partition").eqNullSafe(F.col("before.origin_partition"))
                & (F.col("incoming.origin_offset") == F.col("before.origin_offset")),
                "left_anti",
            )
            expect_all = False
        else:
            expect_all = not records  # duplicates within the dumps may have been dropped
        rows = incoming.select(
            F.col("raw_value"),
            F.col("stream_name"),
            F.col("origin"),
            F.col("origin_partition"),
            F.col("origin_offset"),
            F.col("origin_timestamp"),
            F.expr(f"timestamp'{landed_at.isoformat(sep=' ')}'").alias("landed_at"),
            F.lit(result.batch_id).alias("landing_batch_id"),
            F.col("message_key"),
        )
        columns = [field.name for field in spark.table(table).schema.fields]
        rows.select(*columns).write.insertInto(table)
        record_committed_batch(spark, table, landed_at)
        if expect_all:
            result.messages_landed = result.messages_read
        else:
            result.messages_landed = spark.sql(
                f"select count(*) as n from {table} where landing_batch_id = '{result.batch_id}'"
                f" and landed_at = timestamp'{landed_at.isoformat(sep=' ')}'"
            ).first()["n"]
        return result
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def lineage_seen(spark: SparkSession, table: str, origins: list[str]) -> dict:
    """What a landing needs to know of ``table`` before its insert: ``latest``, its latest
    landing time (text, or None for an empty table); ``files_landed_before``, whether any row
    came from one of ``origins``; ``records_landed_before``, whether any row is a Kafka record.

    One aggregate over the rows any of three filters keeps, each a filter Parquet answers from
    its row groups' statistics (an `or` of them too), so the read does not grow with the
    table's history: the landing time at or after the table's commit mark (the rows of a
    landing killed before its mark are later still, so they are found; without a mark, every
    row), the rows of these origins (kept as data: a DataFrame filter, not SQL text), the rows
    with a Kafka partition. The full read of the lineage columns it replaces took 1.0 s on 1M
    landed lines and 2.3 s on 5M; three aggregates, one per filter, 0.53 s on either, as on
    10,000 (bench/results/2026-12-01-lineage-reads/); this one scan 0.10 s against their
    0.14-0.16 s per table, on a small warehouse as on the 1M one
    (bench/results/2026-12-07-twenty-second/lineage-one-scan.txt)."""
    from pyspark.sql import functions as F

    mark = committed_through(spark, table)
    recent = F.lit(True)
    if mark is not None:
        recent = F.col("landed_at") >= F.expr(f"timestamp'{mark.isoformat(sep=' ')}'")
    of_origins = F.col("origin").isin(origins) if origins else F.lit(False)
    record = F.col("origin_partition").isNotNull()
    answers = (
        spark.table(table)
        .where(recent | of_origins | record)
        .agg(
            F.max(F.when(recent, F.col("landed_at"))).cast("string").alias("latest"),
            F.max(of_origins).alias("files"),
            F.max(record).alias("records"),
        )
        .first()
    )
    latest_text = answers["latest"]
    if latest_text is None and mark is not None and mark > LANDING_CREATED_MARK:
        # a mark above every row (rows deleted by hand): the mark still orders the next batch
        latest_text = mark.isoformat(sep=" ", timespec="microseconds")
    return {
        "latest": latest_text,
        "files_landed_before": bool(answers["files"]),
        "records_landed_before": bool(answers["records"]),
    }


def latest_landed_at(spark: SparkSession, table: str) -> str | None:
    """The latest landing time of ``table`` as text (lineage_seen), or None when it is empty."""
    return lineage_seen(spark, table, [])["latest"]


def next_landing_time(latest: str | None) -> dt.datetime:
    """The landing time of a new batch: now (UTC), or just after ``latest`` (text, as
    lineage_seen gives it) when the clock is not past it. Landing time is the batch's identity
    in the pipeline, so it only grows. (Text, not a collected timestamp: Spark would shift
    that to this machine's time zone.)"""
    landed_at = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    if latest is not None and dt.datetime.fromisoformat(latest) >= landed_at:
        landed_at = dt.datetime.fromisoformat(latest) + dt.timedelta(microseconds=1)
    return landed_at


COMMITTED_THROUGH = "cdc.committed_through"
# The committed mark a landing table is created with (macro landing_created_mark in
# macros/landing/landing_tables.sql): it holds no batch, so it is committed through a time
# before any landing time; the first batch's commit raises it.
LANDING_CREATED_MARK = dt.datetime(1970, 1, 1)


def committed_through(spark: SparkSession, table: str) -> dt.datetime | None:
    """The landing time through which every batch of ``table`` is committed (table property
    ``cdc.committed_through``), or None for a table no batch was recorded on."""
    value = table_properties(spark, table).get(COMMITTED_THROUGH)
    return dt.datetime.fromisoformat(value) if value else None


def record_committed_batch(spark: SparkSession, table: str, landed_at: dt.datetime) -> None:
    """Record, after a batch's insert has committed, that every batch of ``table`` landed at or
    before ``landed_at`` is complete. Staging reads no further (staging_read_plan): Spark
    commits a batch's files one by one, so a build running beside a landing could otherwise
    see part of a batch, and every model after staging could then not start its next read
    strictly after that batch. The mark only grows."""
    current = committed_through(spark, table)
    if current is None or current < landed_at:
        mark = landed_at.isoformat(sep=" ", timespec="microseconds")
        set_table_properties(spark, table, {COMMITTED_THROUGH: mark})


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

