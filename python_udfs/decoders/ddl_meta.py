"""Decode DataWorks ``ddl.ddlMeta``: Base64 of a Java-serialized FastSQL statement.

The stream holds a ``com.alibaba.di.plugin.center.meta.DDLMeta`` with ``ddlText`` and
``statement`` (a FastSQL ``SQLStatement`` AST). :func:`decode_ddl_meta` turns it into a small,
stable dictionary::

    {"statement_kind": "alter_table", "statement_class": "SQLAlterTableStatement",
     "db_type": "mysql", "schema_name": None, "table_name": "t_shiyu_nopk",
     "new_table_name": None, "ddl_text": "alter table t_shiyu_nopk add column holo text",
     "columns": [],                                  # CREATE TABLE column list
     "primary_key": [],
     "columns_added": [{"name": "holo", "type": "text"}],
     "columns_dropped": [],
     "columns_changed": []}                          # [{"name", "new_name", "type"}]

Unknown statement classes still decode (kind from the class name, table when found); the
result is validated so that a corrupted stream that happens to parse is reported, not trusted.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from .java_serialization import JavaEnum, JavaObject, JavaStreamError, read_object

DDL_META_CLASS = "com.alibaba.di.plugin.center.meta.DDLMeta"
_STATEMENT_PACKAGE = "com.alibaba.fastsql.sql"

# Error reasons (also the quarantine reason codes for DDL messages).
ERROR_NOT_BASE64 = "ddl_meta_not_base64"
ERROR_NOT_JAVA = "ddl_meta_not_java_serialized"
ERROR_UNEXPECTED = "ddl_meta_unexpected_content"

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


class DdlMetaError(ValueError):
    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def _identifier(node: Any) -> str | None:
    """Text of an identifier-like AST node (SQLIdentifierExpr, SQLPropertyExpr, …)."""
    if node is None:
        return None
    if isinstance(node, str):
        return node
    if isinstance(node, JavaObject):
        name = node.get("name")
        if isinstance(name, JavaObject):
            name = _identifier(name)
        owner = node.get("owner")
        if owner is not None and isinstance(name, str):
            owner_text = _identifier(owner)
            return f"{owner_text}.{name}" if owner_text else name
        if isinstance(name, str):
            return name
        if "expr" in node.fields:  # SQLExprTableSource and friends
            return _identifier(node.get("expr"))
    return None


def _unquote(name: str | None) -> str | None:
    if name is None:
        return None
    return ".".join(part.strip("`\"[]") for part in name.split("."))


def _literal(node: Any) -> str | None:
    if node is None:
        return None
    if isinstance(node, (int, float, str)):
        return str(node)
    if isinstance(node, JavaObject):
        for key in ("number", "value", "text", "name"):
            value = node.get(key)
            if isinstance(value, (int, float, str)):
                return str(value)
            if isinstance(value, JavaObject):
                return _literal(value)
    return None


def _data_type(node: Any) -> str | None:
    """``varchar(32)``, ``decimal(10,2)``, ``text`` … from a SQLDataType node."""
    if not isinstance(node, JavaObject):
        return None
    name = node.get("name")
    if not isinstance(name, str):
        return None
    arguments = node.get("arguments") or []
    args = [_literal(argument) for argument in _list(arguments)]
    text = name.lower()
    if args and all(arg is not None for arg in args):
        text += "(" + ",".join(args) + ")"  # type: ignore[arg-type]
    if node.get("unsigned"):
        text += " unsigned"
    return text


def _list(value: Any) -> list[Any]:
    """Elements of a serialized java.util.List (ArrayList keeps them in its annotation)."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, JavaObject):
        # ArrayList: annotation = [capacity block, e1, e2, ...]
        return [item for item in value.annotations if not isinstance(item, (bytes, bytearray))]
    return []


def _column(definition: JavaObject) -> dict[str, Any]:
    return {
        "name": _unquote(_identifier(definition.get("name"))),
        "type": _data_type(definition.get("dataType")),
    }


def _statement_kind(statement: JavaObject) -> str:
    simple = statement.simple_name
    for prefix in ("MySql", "Oracle", "PG", "SQLServer", "SQL", "Odps", "Hive"):
        if simple.startswith(prefix):
            simple = simple[len(prefix) :]
            break
    if simple.endswith("Statement"):
        simple = simple[: -len("Statement")]
    return _CAMEL.sub("_", simple).lower() or "unknown"


def _table_of(statement: JavaObject) -> str | None:
    for key in ("tableSource", "table", "name"):
        if key in statement.fields:
            text = _identifier(statement.get(key))
            if text:
                return _unquote(text)
    sources = _list(statement.get("tableSources"))
    if sources:
        return _unquote(_identifier(sources[0]))
    return None


def _alter_items(statement: JavaObject, result: dict[str, Any]) -> None:
    for item in _list(statement.get("items")):
        if not isinstance(item, JavaObject):
            continue
        kind = item.simple_name
        if kind.endswith("AddColumn"):
            for definition in _list(item.get("columns")):
                if isinstance(definition, JavaObject):
                    result["columns_added"].append(_column(definition))
        elif kind.endswith("DropColumnItem") or kind.endswith("DropColumn"):
            for name in _list(item.get("columns")):
                result["columns_dropped"].append(_unquote(_identifier(name)))
        elif kind.endswith("ChangeColumn") or kind.endswith("ModifyColumn"):
            definition = item.get("newColumnDefinition")
            if isinstance(definition, JavaObject):
                column = _column(definition)
                old = _unquote(_identifier(item.get("columnName"))) or column["name"]
                result["columns_changed"].append(
                    {"name": old, "new_name": column["name"], "type": column["type"]}
                )
        elif kind.endswith("RenameColumn"):
            result["columns_changed"].append(
                {
                    "name": _unquote(_identifier(item.get("column"))),
                    "new_name": _unquote(_identifier(item.get("to"))),
                    "type": None,
                }
            )
        elif kind.endswith("AlterColumn"):
            definition = item.get("column")
            if isinstance(definition, JavaObject):
                column = _column(definition)
                result["columns_changed"].append(
                    {"name": column["name"], "new_name": column["name"], "type": column["type"]}
                )
        elif kind.endswith("Rename"):  # ALTER TABLE … RENAME TO …
            result["new_table_name"] = _unquote(_identifier(item.get("to")))


def _create_elements(statement: JavaObject, result: dict[str, Any]) -> None:
    for element in _list(statement.get("tableElementList")):
        if not isinstance(element, JavaObject):
            continue
        if "ColumnDefinition" in element.simple_name:
            result["columns"].append(_column(element))
        elif "PrimaryKey" in element.simple_name:
            index = element.get("indexDefinition")
            holders = _list(index.get("columns")) if isinstance(index, JavaObject) else []
            holders = holders or _list(element.get("columns"))
            for holder in holders:
                expr = holder.get("expr") if isinstance(holder, JavaObject) else holder
                name = _unquote(_identifier(expr))
                if name:
                    result["primary_key"].append(name)


def interpret(root: Any) -> dict[str, Any]:
    """Turn the deserialized DDLMeta object into the documented dictionary."""
    if not isinstance(root, JavaObject):
        raise DdlMetaError(ERROR_UNEXPECTED, "stream does not start with an object")
    if root.class_name == DDL_META_CLASS or "statement" in root.fields:
        ddl_text = root.get("ddlText")
        statement = root.get("statement")
    else:  # a bare SQLStatement
        ddl_text, statement = None, root
    if ddl_text is not None and not isinstance(ddl_text, str):
        raise DdlMetaError(ERROR_UNEXPECTED, "ddlText is not a string")
    if not isinstance(statement, JavaObject) or not statement.class_name.startswith(
        _STATEMENT_PACKAGE
    ):
        raise DdlMetaError(ERROR_UNEXPECTED, "no FastSQL statement in the stream")
    db_type = statement.get("dbType")
    result: dict[str, Any] = {
        "statement_kind": _statement_kind(statement),
        "statement_class": statement.simple_name,
        "db_type": str(db_type) if isinstance(db_type, (JavaEnum, str)) else None,
        "schema_name": None,
        "table_name": None,
        "new_table_name": None,
        "ddl_text": ddl_text,
        "columns": [],
        "primary_key": [],
        "columns_added": [],
        "columns_dropped": [],
        "columns_changed": [],
    }
    table = _table_of(statement)
    if table and "." in table:
        result["schema_name"], result["table_name"] = table.rsplit(".", 1)
    else:
        result["table_name"] = table
    _alter_items(statement, result)
    _create_elements(statement, result)
    for rename in _list(statement.get("items")):
        # MySqlRenameTableStatement: items of (name, to)
        if isinstance(rename, JavaObject) and "to" in rename.fields and "name" in rename.fields:
            result["table_name"] = result["table_name"] or _unquote(_identifier(rename.get("name")))
            result["new_table_name"] = _unquote(_identifier(rename.get("to")))
    return result


def decode_ddl_meta(encoded: str | bytes | None) -> dict[str, Any]:
    """Decode a ``ddlMeta`` value. Raises :class:`DdlMetaError` with a reason code."""
    if encoded is None:
        raise DdlMetaError(ERROR_NOT_BASE64, "ddlMeta is null")
    # Java's MIME encoder (and some producers) wrap Base64 at 76 characters with CR LF:
    # whitespace is never part of the alphabet, so it is dropped before the strict decode
    # (which still rejects any other stray character).
    if isinstance(encoded, str):
        encoded = "".join(encoded.split())
    else:
        encoded = b"".join(bytes(encoded).split())
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as error:
        raise DdlMetaError(ERROR_NOT_BASE64, str(error)) from error
    try:
        root = read_object(raw)
    except JavaStreamError as error:
        raise DdlMetaError(ERROR_NOT_JAVA, str(error)) from error
    return interpret(root)


def decode_ddl_meta_json(encoded: str | None) -> tuple[str | None, str | None]:
    """UDF body: ``(json, None)`` on success, ``(None, "reason: detail")`` on bad input."""
    if encoded is None:
        return None, None
    try:
        return json.dumps(decode_ddl_meta(encoded), ensure_ascii=False), None
    except DdlMetaError as error:
        return None, f"{error.reason}: {error.detail}"[:500]
    except Exception as error:  # noqa: BLE001 - a UDF must never fail the run
        return None, f"{ERROR_UNEXPECTED}: {type(error).__name__}: {error}"[:500]
