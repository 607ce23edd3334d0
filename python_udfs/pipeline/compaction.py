"""Compaction of appended tables: many small files rewritten as a few, switched in one step.

Every landing and every incremental build appends files to the landing tables and the
appended models (the staging models, int_redelivered_changes, int_update_halves_paired, ...):
one to three per batch. A `cdc-pipeline watch` landing small batches all day leaves thousands,
and every later read opens each of them: on the small bench warehouse, with 50-80 files per
table a warm 1,000-message batch took 35 s, and 27 s once they were compacted (bench/SUMMARY.md,
2026-11-30 morning).

So once a plain Parquet table the warehouse manages (not external, not partitioned, not a
view, not Delta/Iceberg, which compact themselves) holds at least ``min_files`` files, and its
bytes fit in at most half as many files of ``file_bytes``, its rows are written again, ordered
by ``landed_at`` (incremental reads keep skipping old files and row groups by their
statistics), into a new folder beside the table's, and the table's location is switched
there: one metastore update, so a reader sees the old files or the new ones, never both or
neither. The table keeps its properties
(the high-water marks). The folder it replaced is deleted by the table's next compaction,
not at once: a query that began before the switch (a build beside a landing) finishes on it.

A run killed while writing leaves a folder no table uses; the next compaction deletes it too.
"""

from __future__ import annotations

import math
import re
import uuid
from dataclasses import dataclass

from .sql_text import quoted_identifier, sql_text

# The folders a compaction writes: `<the table's default folder>__compacted_<32 hex digits>`.
FOLDER_SUFFIX = "__compacted_"
_FOLDER_PATTERN = re.compile(r"__compacted_[0-9a-f]{32}")

DEFAULT_MIN_FILES = 16
DEFAULT_FILE_BYTES = 128 * 1024 * 1024


@dataclass
class Compaction:
    """What one compaction did."""

    table: str
    files_before: int
    files_after: int
    bytes: int
    location: str


def _data_files(filesystem, location) -> list:  # type: ignore[no-untyped-def]
    """The data files directly under ``location`` (not `_SUCCESS`, not hidden)."""
    if not filesystem.exists(location):
        return []
    return [
        status
        for status in filesystem.listStatus(location)
        if status.isFile() and not status.getPath().getName().startswith(("_", "."))
    ]


def compact_small_files(
    spark,  # type: ignore[no-untyped-def]
    schema: str,
    name: str,
    *,
    min_files: int = DEFAULT_MIN_FILES,
    file_bytes: int = DEFAULT_FILE_BYTES,
) -> Compaction | None:
    """Compact ``schema.name`` if it is fragmented (see the module's doc); None when it is not,
    or cannot be (a view, a partitioned table, another format). ``min_files`` 0: never."""
    if min_files <= 0:
        return None
    jvm = spark._jvm
    session_state = spark._jsparkSession.sessionState()
    catalog = session_state.catalog()
    identifier = jvm.org.apache.spark.sql.catalyst.TableIdentifier(name, jvm.scala.Option.apply(schema))
    if not catalog.tableExists(identifier):
        return None
    table = catalog.getTableMetadata(identifier)
    provider = table.provider().get() if table.provider().isDefined() else None
    if (
        table.tableType().name() != "MANAGED"  # a view, or a user's external table: not ours to move
        or table.partitionColumnNames().nonEmpty()
        or table.bucketSpec().isDefined()
        or (provider or "").lower() != "parquet"
        or table.storage().locationUri().isEmpty()
    ):
        return None
    hadoop_conf = session_state.newHadoopConf()
    location = jvm.org.apache.hadoop.fs.Path(table.storage().locationUri().get())
    filesystem = location.getFileSystem(hadoop_conf)
    files = _data_files(filesystem, location)
    stored = sum(int(status.getLen()) for status in files)
    wanted = max(1, math.ceil(stored / max(file_bytes, 1)))
    if len(files) < min_files or wanted * 2 > len(files):
        return None

    relation = f"{quoted_identifier(schema)}.{quoted_identifier(name)}"
    default_location = jvm.org.apache.hadoop.fs.Path(catalog.defaultTablePath(identifier))
    _delete_replaced_folders(filesystem, default_location, location)
    target = default_location.suffix(FOLDER_SUFFIX + uuid.uuid4().hex)
    rows = spark.table(relation)
    ordered = "landed_at" in rows.columns
    rows = rows.repartitionByRange(wanted, "landed_at") if ordered and wanted > 1 else rows.coalesce(wanted)
    if ordered:
        rows = rows.sortWithinPartitions("landed_at")
    rows.write.parquet(target.toString())
    written = len(_data_files(filesystem, target))
    spark.sql(f"alter table {relation} set location {sql_text(target.toString())}")
    return Compaction(f"{schema}.{name}", len(files), written, stored, target.toString())


def _delete_replaced_folders(filesystem, default_location, current) -> None:  # type: ignore[no-untyped-def]
    """Delete the folders earlier compactions replaced or a killed one left: the table's
    default folder and its `__compacted_` siblings, except the one the table uses."""
    current_key = current.toUri().getPath().rstrip("/")
    parent = default_location.getParent()
    base = default_location.getName()
    if not filesystem.exists(parent):
        return
    for status in filesystem.listStatus(parent):
        path = status.getPath()
        folder = path.getName()
        if not status.isDirectory() or path.toUri().getPath().rstrip("/") == current_key:
            continue
        if folder == base or (folder.startswith(base) and _FOLDER_PATTERN.fullmatch(folder[len(base):])):
            filesystem.delete(path, True)

