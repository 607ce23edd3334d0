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
"""

from __future__ import annotations

import json
from typing import Any


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
