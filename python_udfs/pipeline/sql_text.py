"""Names and values as Spark SQL text: what reaches a statement from data is quoted, never
pasted (a table named with a backtick, a path or id with a quote)."""

from __future__ import annotations


def quoted_identifier(identifier: str) -> str:
    """A Spark SQL identifier in backticks (a backtick inside doubled)."""
    return "`" + identifier.replace("`", "``") + "`"


def sql_text(value: str) -> str:
    """A Spark SQL string literal (backslashes and single quotes escaped)."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
