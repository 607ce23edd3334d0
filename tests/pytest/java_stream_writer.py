"""A tiny Java Object Serialization Stream *writer*, for building ddlMeta test fixtures.

It writes the same grammar Java's ObjectOutputStream does (class descriptors, handles,
back-references, ArrayList with its writeObject annotation, enums), so FastSQL-shaped
statements can be made without the Java classes. Only what the fixtures need is supported.
"""

from __future__ import annotations

import base64
import struct
from dataclasses import dataclass, field
from typing import Any

SC_WRITE_METHOD, SC_SERIALIZABLE, SC_ENUM = 0x01, 0x02, 0x10


@dataclass
class Obj:
    class_name: str
    fields: dict[str, Any] = field(default_factory=dict)
    superclass: str | None = None


@dataclass
class Enum:
    class_name: str
    constant: str


@dataclass
class Int:
    value: int


class StreamWriter:
    def __init__(self) -> None:
        self.out = bytearray(b"\xac\xed\x00\x05")
        self.next_handle = 0x7E0000
        self.class_handles: dict[str, int] = {}
        self.string_handles: dict[str, int] = {}

    def handle(self) -> int:
        value = self.next_handle
        self.next_handle += 1
        return value

    def utf(self, text: str) -> None:
        data = text.encode("utf-8")
        self.out += struct.pack(">H", len(data)) + data

    def string(self, text: str) -> None:
        if text in self.string_handles:
            self.out += b"\x71" + struct.pack(">i", self.string_handles[text])
            return
        self.out += b"\x74"
        self.string_handles[text] = self.handle()
        self.utf(text)

    def class_desc(self, name: str, fields: list[tuple[str, str]], flags: int, superclass: tuple | None) -> None:
        if name in self.class_handles:
            self.out += b"\x71" + struct.pack(">i", self.class_handles[name])
            return
        self.out += b"\x72"
        self.utf(name)
        self.out += struct.pack(">q", 1)
        self.class_handles[name] = self.handle()
        self.out += bytes([flags]) + struct.pack(">h", len(fields))
        for code, field_name in fields:
            self.out += code.encode()
            self.utf(field_name)
            if code in "L[":
                self.string("Ljava/lang/Object;")
        self.out += b"\x78"  # no class annotation
        if superclass is None:
            self.out += b"\x70"
        else:
            self.class_desc(*superclass)

    def value(self, value: Any) -> None:
        if value is None:
            self.out += b"\x70"
        elif isinstance(value, str):
            self.string(value)
        elif isinstance(value, list):
            self.out += b"\x73"
            self.class_desc("java.util.ArrayList", [("I", "size")], SC_SERIALIZABLE | SC_WRITE_METHOD, None)
            self.handle()
            self.out += struct.pack(">i", len(value))
            self.out += b"\x77\x04" + struct.pack(">i", max(len(value), 1))
            for item in value:
                self.value(item)
            self.out += b"\x78"
        elif isinstance(value, Enum):
            self.out += b"\x7e"
            self.class_desc(
                value.class_name, [], SC_SERIALIZABLE | SC_ENUM,
                ("java.lang.Enum", [], SC_SERIALIZABLE | SC_ENUM, None),
            )
            self.handle()
            self.string(value.constant)
        elif isinstance(value, Int):
            self.out += b"\x73"
            self.class_desc(
                "java.lang.Integer", [("I", "value")], SC_SERIALIZABLE,
                ("java.lang.Number", [], SC_SERIALIZABLE, None),
            )
            self.handle()
            self.out += struct.pack(">i", value.value)
        elif isinstance(value, bool):
            raise TypeError("booleans are written as fields, not values")
        elif isinstance(value, Obj):
            self.out += b"\x73"
            layout = [("Z" if isinstance(v, bool) else "I" if isinstance(v, int) else "L", k) for k, v in value.fields.items()]
            superclass = (value.superclass, [], SC_SERIALIZABLE, None) if value.superclass else None
            self.class_desc(value.class_name, layout, SC_SERIALIZABLE, superclass)
            self.handle()
            for (code, _), v in zip(layout, value.fields.values(), strict=True):
                if code == "Z":
                    self.out += b"\x01" if v else b"\x00"
                elif code == "I":
                    self.out += struct.pack(">i", v)
                else:
                    self.value(v)
        else:
            raise TypeError(f"cannot write {value!r}")


def serialize(value: Any) -> bytes:
    writer = StreamWriter()
    writer.value(value)
    return bytes(writer.out)


# -- FastSQL-shaped builders ------------------------------------------------------------------
AST = "com.alibaba.fastsql.sql.ast."
MYSQL = Enum("com.alibaba.fastsql.DbType", "mysql")


def ident(name: str) -> Obj:
    return Obj(AST + "expr.SQLIdentifierExpr", {"name": name})


def qualified(owner: str, name: str) -> Obj:
    return Obj(AST + "expr.SQLPropertyExpr", {"owner": ident(owner), "name": name})


def data_type(name: str, *arguments: int) -> Obj:
    return Obj(
        AST + "statement.SQLCharacterDataType" if name.startswith(("var", "char", "text")) else AST + "SQLDataTypeImpl",
        {"name": name, "arguments": [Obj(AST + "expr.SQLIntegerExpr", {"number": Int(a)}) for a in arguments], "unsigned": False},
    )


def column(name: str, type_name: str, *arguments: int) -> Obj:
    return Obj(AST + "statement.SQLColumnDefinition", {"name": ident(name), "dataType": data_type(type_name, *arguments)})


def table_source(expr: Obj) -> Obj:
    return Obj(AST + "statement.SQLExprTableSource", {"expr": expr})


def ddl_meta(ddl_text: str, statement: Obj) -> str:
    root = Obj("com.alibaba.di.plugin.center.meta.DDLMeta", {"ddlText": ddl_text, "statement": statement})
    return base64.b64encode(serialize(root)).decode()
