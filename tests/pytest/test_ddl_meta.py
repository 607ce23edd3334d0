"""ddlMeta decoding: the seed sample, FastSQL statement shapes, and corrupted input."""

from __future__ import annotations

import base64
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from python_udfs.decoders.ddl_meta import (
    ERROR_NOT_BASE64,
    ERROR_NOT_JAVA,
    DdlMetaError,
    decode_ddl_meta,
    decode_ddl_meta_json,
)
from python_udfs.decoders.java_serialization import JavaStreamError, read_object

from .conftest import FIXTURES_DIR
from .java_stream_writer import AST, MYSQL, Obj, column, ddl_meta, ident, qualified, table_source

SEED_DDL_META = json.loads((FIXTURES_DIR / "dataworks" / "seed000_ddl_alter.json").read_text())["payload"]["ddl"]["ddlMeta"]


def test_seed_sample_decodes_to_table_column_and_type():
    decoded = decode_ddl_meta(SEED_DDL_META)
    assert decoded["statement_kind"] == "alter_table"
    assert decoded["statement_class"] == "SQLAlterTableStatement"
    assert decoded["db_type"] == "mysql"
    assert decoded["table_name"] == "t_shiyu_nopk"
    assert decoded["ddl_text"] == "alter table t_shiyu_nopk add column holo text"
    assert decoded["columns_added"] == [{"name": "holo", "type": "text"}]
    assert decoded["columns_dropped"] == [] and decoded["columns_changed"] == []


def test_seed_sample_agrees_with_the_generic_java_reader():
    javaobj = pytest.importorskip("javaobj.v2")
    reference = javaobj.loads(base64.b64decode(SEED_DDL_META))
    statement = reference.field_data
    text = [v for fields in statement.values() for f, v in fields.items() if f.name == "ddlText"][0]
    assert str(text) == decode_ddl_meta(SEED_DDL_META)["ddl_text"]


def alter(items):
    return Obj(AST + "statement.SQLAlterTableStatement", {
        "dbType": MYSQL, "items": items, "tableSource": table_source(qualified("shop", "orders")),
    })


@pytest.mark.parametrize(
    ("case", "statement", "expected"),
    [
        (
            "create_table",
            Obj("com.alibaba.fastsql.sql.dialect.mysql.ast.statement.MySqlCreateTableStatement", {
                "dbType": MYSQL,
                "tableSource": table_source(ident("`orders`")),
                "tableElementList": [
                    column("id", "bigint", 20),
                    column("customer", "varchar", 64),
                    column("amount", "decimal", 10, 2),
                    Obj("com.alibaba.fastsql.sql.dialect.mysql.ast.MySqlPrimaryKey", {
                        "indexDefinition": Obj(AST + "statement.SQLIndexDefinition", {
                            "columns": [Obj(AST + "statement.SQLSelectOrderByItem", {"expr": ident("id")})],
                        }),
                    }),
                ],
            }),
            {"statement_kind": "create_table", "table_name": "orders",
             "columns": [{"name": "id", "type": "bigint(20)"}, {"name": "customer", "type": "varchar(64)"},
                         {"name": "amount", "type": "decimal(10,2)"}],
             "primary_key": ["id"]},
        ),
        (
            "drop_column",
            alter([Obj(AST + "statement.SQLAlterTableDropColumnItem", {"columns": [ident("note")]})]),
            {"statement_kind": "alter_table", "schema_name": "shop", "table_name": "orders", "columns_dropped": ["note"]},
        ),
        (
            "modify_column",
            alter([Obj("com.alibaba.fastsql.sql.dialect.mysql.ast.statement.MySqlAlterTableModifyColumn", {
                "newColumnDefinition": column("amount", "decimal", 12, 4)})]),
            {"columns_changed": [{"name": "amount", "new_name": "amount", "type": "decimal(12,4)"}]},
        ),
        (
            "change_column",
            alter([Obj("com.alibaba.fastsql.sql.dialect.mysql.ast.statement.MySqlAlterTableChangeColumn", {
                "columnName": ident("customer"), "newColumnDefinition": column("customer_name", "varchar", 128)})]),
            {"columns_changed": [{"name": "customer", "new_name": "customer_name", "type": "varchar(128)"}]},
        ),
        (
            "add_two_columns",
            alter([Obj(AST + "statement.SQLAlterTableAddColumn", {"columns": [column("a", "int"), column("b", "text")]})]),
            {"columns_added": [{"name": "a", "type": "int"}, {"name": "b", "type": "text"}]},
        ),
        (
            "drop_table",
            Obj(AST + "statement.SQLDropTableStatement", {"dbType": MYSQL, "tableSources": [table_source(ident("orders"))]}),
            {"statement_kind": "drop_table", "table_name": "orders"},
        ),
        (
            "rename_table",
            Obj("com.alibaba.fastsql.sql.dialect.mysql.ast.statement.MySqlRenameTableStatement", {
                "dbType": MYSQL,
                "items": [Obj("com.alibaba.fastsql.sql.dialect.mysql.ast.statement.MySqlRenameTableStatement$Item",
                              {"name": ident("orders"), "to": ident("orders_v2")})],
            }),
            {"statement_kind": "rename_table", "table_name": "orders", "new_table_name": "orders_v2"},
        ),
        (
            "truncate",
            Obj(AST + "statement.SQLTruncateStatement", {"dbType": MYSQL, "tableSources": [table_source(ident("orders"))]}),
            {"statement_kind": "truncate", "table_name": "orders"},
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_statement_shapes(case, statement, expected):
    decoded = decode_ddl_meta(ddl_meta(f"-- {case}", statement))
    assert decoded["ddl_text"] == f"-- {case}"
    for key, value in expected.items():
        assert decoded[key] == value, key


def test_not_base64_is_reported():
    with pytest.raises(DdlMetaError) as error:
        decode_ddl_meta("this is not base64!")
    assert error.value.reason == ERROR_NOT_BASE64


def test_mime_wrapped_base64_decodes_like_the_plain_text():
    # java.util.Base64.getMimeEncoder(): 76-character lines separated by CR LF
    wrapped = "\r\n".join(SEED_DDL_META[i:i + 76] for i in range(0, len(SEED_DDL_META), 76))
    assert "\r\n" in wrapped
    assert decode_ddl_meta(" " + wrapped + "\n") == decode_ddl_meta(SEED_DDL_META)
    assert decode_ddl_meta(wrapped.encode()) == decode_ddl_meta(SEED_DDL_META)
    # whitespace is the only thing tolerated: any other stray character is still not Base64
    with pytest.raises(DdlMetaError) as error:
        decode_ddl_meta(SEED_DDL_META[:40] + "!" + SEED_DDL_META[40:])
    assert error.value.reason == ERROR_NOT_BASE64


def test_not_java_is_reported():
    with pytest.raises(DdlMetaError) as error:
        decode_ddl_meta(base64.b64encode(b"plain text, not a stream").decode())
    assert error.value.reason == ERROR_NOT_JAVA


@pytest.mark.parametrize("cut", [4, 5, 50, 500, 1000, 2000, 3000, 3579])
def test_truncated_stream_is_reported_not_raised(cut):
    raw = base64.b64decode(SEED_DDL_META)[:cut]
    decoded, error = decode_ddl_meta_json(base64.b64encode(raw).decode())
    assert decoded is None
    assert re.match(r"ddl_meta_\w+: ", error)


def test_null_is_null_without_error():
    assert decode_ddl_meta_json(None) == (None, None)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_corrupted_streams_never_raise(data):
    raw = bytearray(base64.b64decode(SEED_DDL_META))
    for _ in range(data.draw(st.integers(1, 8))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    decoded, error = decode_ddl_meta_json(base64.b64encode(bytes(raw)).decode())
    assert (decoded is None) != (error is None)
    if decoded is not None:  # a corruption that still parses must still have the documented shape
        assert set(json.loads(decoded)) >= {"statement_kind", "table_name", "columns_added"}


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_raise_from_the_reader(blob):
    try:
        read_object(b"\xac\xed\x00\x05" + blob)
    except JavaStreamError:
        pass
