"""A table's properties read from the Spark session's catalog, not through a SQL statement.

The pipeline keeps its marks and versions as table properties (`cdc.read_through`,
`cdc.version`, `cdc.committed_through`, the data tests' `cdc.passed.*` memory), and a warm
1,000-message batch reads them about 30 times. `show tblproperties` is a whole SQL statement:
Spark parses and plans it, posts its execution (plan text included) to the listeners and
returns rows, and under dbt each one is also a logged query with an agate result. The same
answer straight from the session catalog is one metastore lookup: 27-47 ms against 82-143 ms
per read in one warm session (bench/results/2026-12-02-afternoon-batch-anatomy/).

The answer is what `show tblproperties` lists: Spark's internal `view.*` properties of a view
are left out. It is always read afresh (the catalog's table lookup is not cached).

Writes (`alter ... set tblproperties`, about 20 a warm batch: each model's new version and
marks, the data tests' memory, the landing's commit mark) run the command Spark would plan
for that statement directly, without the statement around it.

A write to a table also clears the table's size statistics in a metastore only this session
uses (NO_SIZE_STATISTICS): Hive recounts a table's files at every change to it and Spark
takes that count as the table's statistics, which every insert then writes off again: one
more metastore change per insert (docs/operations.md, "Tables without size statistics").
"""

from __future__ import annotations

import json
from typing import Any

# Written with every property write to a table in a metastore of its own (metastore_is_own):
# Hive recounts a table's files (numFiles, totalSize) at every change to the table unless the
# change carries DO_NOT_UPDATE_STATS (which Hive then drops), and Spark reads a totalSize above
# zero as the table's statistics. An insert into a table with statistics writes them off (a
# metastore change, which Hive answers with a recount); without them Spark sizes the table
# from its files, as it does for any table it has no statistics of.
NO_SIZE_STATISTICS = {"DO_NOT_UPDATE_STATS": "true", "totalSize": "0", "numFiles": "0"}


def read_table_properties(spark: Any, schema: str, name: str) -> dict[str, str]:
    """The properties of table or view ``schema``.``name`` (names as the catalog holds them,
    unquoted). Raises when there is no such relation or the catalog cannot be read; callers
    that can ask Spark another way then do."""
    jvm = spark._jvm
    identifier = jvm.org.apache.spark.sql.catalyst.TableIdentifier(name, jvm.scala.Option.apply(schema))
    table = spark._jsparkSession.sessionState().catalog().getTableMetadata(identifier)
    # one JSON text across the Py4J bridge, not a round trip per property
    text = jvm.com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(
        jvm.scala.jdk.javaapi.CollectionConverters.asJava(table.properties())
    )
    return {key: str(value) for key, value in json.loads(text).items() if not key.startswith("view.")}


def split_table_name(table: str) -> tuple[str, str] | None:
    """``schema.name`` as its two parts, or None for any other shape (a quoted or three-part
    name: the caller then uses SQL, which parses names its own way)."""
    parts = table.split(".")
    if len(parts) != 2 or not all(parts) or any("`" in part or " " in part for part in parts):
        return None
    return parts[0], parts[1]


def table_properties(spark: Any, table: str) -> dict[str, str]:
    """``table``'s properties: from the session catalog when its name is a plain
    ``schema.name`` and the catalog answers, else from `show tblproperties` (which also says
    what is wrong when neither can)."""
    parts = split_table_name(table)
    if parts is not None:
        try:
            return read_table_properties(spark, *parts)
        except Exception:  # noqa: BLE001 - the statement below reads them, or raises
            pass
    return {row[0]: row[1] for row in spark.sql(f"show tblproperties {table}").collect()}


def write_table_properties(spark: Any, table: str, properties: dict[str, str], is_view: bool = False) -> None:
    """Set ``properties`` on table (or view) ``table`` as `alter table|view ... set
    tblproperties` does, without the SQL statement: the same command object Spark plans for
    that statement (`AlterTableSetPropertiesCommand`), run directly, so nothing is parsed,
    planned or posted to the listeners (a warm batch writes about 20). ``table`` is a name as
    SQL writes it (quoted parts allowed). Raises when the relation is missing or the catalog
    refuses; the caller then runs the statement, which says what is wrong."""
    session = spark._jsparkSession
    jvm = spark._jvm
    identifier = session.sessionState().sqlParser().parseTableIdentifier(table)
    written = {str(k): str(v) for k, v in properties.items()}
    if not is_view and metastore_is_own(spark) and not _is_partitioned(spark, identifier):
        written.update(NO_SIZE_STATISTICS)
    values = jvm.org.apache.spark.api.python.PythonUtils.toScalaMap(written)
    jvm.org.apache.spark.sql.execution.command.AlterTableSetPropertiesCommand(identifier, values, is_view).run(session)


# Whether a table is partitioned, by qualified name, looked up once per process: a property
# write is then one metastore lookup, as the command's own. (A table recreated with another
# partitioning under the same name is only written differently: Hive keeps a partitioned
# table's DO_NOT_UPDATE_STATS as a plain property, and an unpartitioned table keeps its
# statistics.)
_PARTITIONED: dict[str, bool] = {}


def _is_partitioned(spark: Any, identifier: Any) -> bool:
    """Whether the table ``identifier`` (a TableIdentifier) has partition columns. Hive keeps
    no table-level count for a partitioned table, so it would never drop the marker."""
    catalog = spark._jsparkSession.sessionState().catalog()
    database = identifier.database().get() if identifier.database().isDefined() else catalog.getCurrentDatabase()
    key = f"{database}.{identifier.table()}".lower()
    if key not in _PARTITIONED:
        table = catalog.getTableRawMetadata(identifier)
        _PARTITIONED[key] = bool(table.partitionColumnNames().nonEmpty())
    return _PARTITIONED[key]


def metastore_is_own(spark: Any) -> bool:
    """Whether the session's catalog is a Hive metastore that runs inside this session (the
    embedded Derby one: no `hive.metastore.uris`). Only there are a table's size statistics
    cleared (NO_SIZE_STATISTICS): a shared metastore may serve other engines that plan with
    them, and another catalog would keep Hive's names as plain properties."""
    if spark.conf.get("spark.sql.catalogImplementation", "in-memory") != "hive":
        return False
    uris = spark.sparkContext._jsc.hadoopConfiguration().get("hive.metastore.uris") or ""
    return not uris.strip() and not spark.conf.get("spark.hadoop.hive.metastore.uris", "").strip()


def sql_property_assignments(properties: dict[str, str]) -> str:
    """``properties`` as the assignments of a `set tblproperties (...)` clause, as escaped
    string literals."""

    def literal(text: str) -> str:
        return "'" + str(text).replace("\\", "\\\\").replace("'", "\\'") + "'"

    return ", ".join(f"{literal(key)} = {literal(value)}" for key, value in properties.items())


def set_table_properties(spark: Any, table: str, properties: dict[str, str], is_view: bool = False) -> None:
    """``write_table_properties``, or the `alter ... set tblproperties` statement when the
    command cannot be run directly (another Spark version, a catalog it does not serve)."""
    try:
        write_table_properties(spark, table, properties, is_view)
    except Exception:  # noqa: BLE001 - the statement below writes them, or raises
        kind = "view" if is_view else "table"
        spark.sql(f"alter {kind} {table} set tblproperties ({sql_property_assignments(properties)})")
