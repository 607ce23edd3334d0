"""A lean reader for the Java Object Serialization Stream protocol.

DataWorks puts a Java-serialized FastSQL ``SQLStatement`` into ``ddl.ddlMeta``. The generic
``javaobj`` reader manages about 500 decodes/s; this reader parses the same grammar
(https://docs.oracle.com/en/java/javase/17/docs/specs/serialization/protocol.html) into plain
Python values in a fraction of the time, without the Java classes.

Output model:
- objects become :class:`JavaObject` (class name, declared field values, annotation contents);
- strings become ``str``; enum constants :class:`JavaEnum`; arrays ``list`` (``bytes`` for byte[]);
- primitives become ``int``/``float``/``bool``/``str`` (char);
- back-references resolve to the same Python object (cycles are possible: parent links).

Malformed input raises :class:`JavaStreamError` and nothing else.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any

STREAM_MAGIC = 0xACED
STREAM_VERSION = 5
BASE_HANDLE = 0x7E0000

TC_NULL = 0x70
TC_REFERENCE = 0x71
TC_CLASSDESC = 0x72
TC_OBJECT = 0x73
TC_STRING = 0x74
TC_ARRAY = 0x75
TC_CLASS = 0x76
TC_BLOCKDATA = 0x77
TC_ENDBLOCKDATA = 0x78
TC_RESET = 0x79
TC_BLOCKDATALONG = 0x7A
TC_EXCEPTION = 0x7B
TC_LONGSTRING = 0x7C
TC_PROXYCLASSDESC = 0x7D
TC_ENUM = 0x7E

SC_WRITE_METHOD = 0x01
SC_SERIALIZABLE = 0x02
SC_EXTERNALIZABLE = 0x04
SC_BLOCK_DATA = 0x08

MAX_DEPTH = 200  # deeper nesting than any SQL AST we expect: treat as hostile input

# Field type code -> big-endian layout (precompiled: the reader's hottest path).
_PRIMITIVES = {
    code: struct.Struct(fmt)
    for code, fmt in {
        "B": ">b", "C": ">H", "D": ">d", "F": ">f", "I": ">i", "J": ">q", "S": ">h", "Z": ">?",
    }.items()
}
_U16 = struct.Struct(">H")
_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_U64 = struct.Struct(">Q")


class JavaStreamError(ValueError):
    """The bytes are not a well-formed Java serialization stream."""


@dataclass(eq=False)
class ClassDesc:
    name: str
    flags: int
    fields: list[tuple[str, str]]  # (type code, field name)
    superclass: ClassDesc | None
    _chain: list[ClassDesc] | None = None

    def hierarchy(self) -> list[ClassDesc]:
        """Classes from the top-most serializable superclass down to this one (cached: a
        descriptor is complete once its superclass is read, and objects reuse it)."""
        if self._chain is None:
            chain: list[ClassDesc] = []
            desc: ClassDesc | None = self
            while desc is not None:
                chain.append(desc)
                desc = desc.superclass
            self._chain = chain[::-1]
        return self._chain


@dataclass(eq=False)
class JavaObject:
    class_name: str
    fields: dict[str, Any] = field(default_factory=dict)
    annotations: list[Any] = field(default_factory=list)
    class_names: tuple[str, ...] = ()  # the whole hierarchy, for isinstance-like checks

    @property
    def simple_name(self) -> str:
        return self.class_name.rsplit(".", 1)[-1]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    def __repr__(self) -> str:  # short: objects may be cyclic
        return f"JavaObject({self.simple_name})"


@dataclass(eq=False)
class JavaEnum:
    class_name: str
    constant: str

    def __str__(self) -> str:
        return self.constant


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = bytes(data)
        self.size = len(self.data)
        self.pos = 0
        self.handles: list[Any] = []
        self.depth = 0

    # -- primitives ------------------------------------------------------------------------
    def take(self, size: int) -> bytes:
        end = self.pos + size
        if size < 0 or end > self.size:
            raise JavaStreamError(f"stream ends early at byte {self.pos} (needs {size} more)")
        chunk = self.data[self.pos : end]
        self.pos = end
        return chunk

    def unpack(self, layout: struct.Struct) -> Any:
        pos = self.pos
        if pos + layout.size > self.size:
            raise JavaStreamError(f"stream ends early at byte {pos}")
        self.pos = pos + layout.size
        return layout.unpack_from(self.data, pos)[0]

    def byte(self) -> int:
        pos = self.pos
        if pos >= self.size:
            raise JavaStreamError(f"stream ends early at byte {pos}")
        self.pos = pos + 1
        return self.data[pos]

    def utf(self, long: bool = False) -> str:
        raw = self.take(self.unpack(_U64 if long else _U16))
        try:
            # Java's "modified UTF-8": NUL as C0 80 and surrogate pairs; plain UTF-8 otherwise.
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.replace(b"\xc0\x80", b"\x00").decode("utf-8", errors="surrogatepass")

    # -- grammar ---------------------------------------------------------------------------
    def new_handle(self, value: Any) -> int:
        self.handles.append(value)
        return len(self.handles) - 1

    def reference(self) -> Any:
        handle = self.unpack(_I32) - BASE_HANDLE
        if not 0 <= handle < len(self.handles):
            raise JavaStreamError(f"reference to unknown handle {handle + BASE_HANDLE:#x}")
        return self.handles[handle]

    def content(self) -> Any:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise JavaStreamError("object graph nested too deeply")
        try:
            return self._content(self.byte())
        finally:
            self.depth -= 1

    def _content(self, tc: int) -> Any:
        if tc == TC_NULL:
            return None
        if tc == TC_REFERENCE:
            return self.reference()
        if tc == TC_STRING or tc == TC_LONGSTRING:
            index = self.new_handle(None)
            value = self.utf(long=tc == TC_LONGSTRING)
            self.handles[index] = value
            return value
        if tc == TC_OBJECT:
            return self.new_object()
        if tc == TC_ENUM:
            desc = self.class_desc()
            index = self.new_handle(None)
            constant = self.content()
            if not isinstance(constant, str):
                raise JavaStreamError("enum constant name is not a string")
            value = JavaEnum(desc.name if desc else "?", constant)
            self.handles[index] = value
            return value
        if tc == TC_ARRAY:
            return self.new_array()
        if tc == TC_CLASS:
            desc = self.class_desc()
            self.new_handle(desc)
            return desc
        if tc in (TC_CLASSDESC, TC_PROXYCLASSDESC):
            self.pos -= 1
            return self.class_desc()
        if tc == TC_BLOCKDATA:
            return self.take(self.byte())
        if tc == TC_BLOCKDATALONG:
            return self.take(self.unpack(_I32))
        if tc == TC_RESET:
            self.handles.clear()
            return self.content()
        if tc == TC_EXCEPTION:
            raise JavaStreamError("stream carries a serialized exception")
        raise JavaStreamError(f"unexpected type code {tc:#04x} at byte {self.pos - 1}")

    def class_desc(self) -> ClassDesc | None:
        tc = self.byte()
        if tc == TC_NULL:
            return None
        if tc == TC_REFERENCE:
            desc = self.reference()
            if not isinstance(desc, ClassDesc):
                raise JavaStreamError("class descriptor reference points elsewhere")
            return desc
        if tc == TC_PROXYCLASSDESC:
            index = self.new_handle(None)
            count = self.unpack(_I32)
            names = [self.utf() for _ in range(count)]
            self.annotation()
            desc = ClassDesc("proxy:" + ",".join(names), SC_SERIALIZABLE, [], self.class_desc())
            self.handles[index] = desc
            return desc
        if tc != TC_CLASSDESC:
            raise JavaStreamError(f"expected a class descriptor, got {tc:#04x}")
        name = self.utf()
        self.take(8)  # serialVersionUID: irrelevant without the classes
        index = self.new_handle(None)
        flags = self.byte()
        count = self.unpack(_I16)
        if count < 0:
            raise JavaStreamError("negative field count")
        fields: list[tuple[str, str]] = []
        for _ in range(count):
            code = chr(self.byte())
            field_name = self.utf()
            if code in ("L", "["):
                type_name = self.content()
                if not isinstance(type_name, str):
                    raise JavaStreamError("field type name is not a string")
            elif code not in _PRIMITIVES:
                raise JavaStreamError(f"unknown field type code {code!r}")
            fields.append((code, field_name))
        desc = ClassDesc(name, flags, fields, None)
        self.handles[index] = desc
        self.annotation()
        desc.superclass = self.class_desc()
        return desc

    def annotation(self) -> list[Any]:
        """Contents up to TC_ENDBLOCKDATA (class or object annotations)."""
        items: list[Any] = []
        while True:
            if self.pos >= self.size:
                raise JavaStreamError("annotation not terminated")
            if self.data[self.pos] == TC_ENDBLOCKDATA:
                self.pos += 1
                return items
            items.append(self.content())

    def field_value(self, code: str) -> Any:
        if code in ("L", "["):
            return self.content()
        value = self.unpack(_PRIMITIVES[code])
        return chr(value) if code == "C" else value

    def new_object(self) -> JavaObject:
        desc = self.class_desc()
        if desc is None:
            raise JavaStreamError("object without class descriptor")
        chain = desc.hierarchy()
        obj = JavaObject(desc.name, class_names=tuple(d.name for d in chain))
        self.new_handle(obj)
        for cls in chain:
            if cls.flags & SC_EXTERNALIZABLE:
                if not cls.flags & SC_BLOCK_DATA:
                    raise JavaStreamError(f"{cls.name}: old externalizable format")
                obj.annotations.extend(self.annotation())
                continue
            for code, name in cls.fields:
                obj.fields[name] = self.field_value(code)
            if cls.flags & SC_WRITE_METHOD:
                obj.annotations.extend(self.annotation())
        return obj

    def new_array(self) -> list[Any] | bytes:
        desc = self.class_desc()
        if desc is None:
            raise JavaStreamError("array without class descriptor")
        index = self.new_handle(None)
        size = self.unpack(_I32)
        if size < 0 or size > len(self.data):
            raise JavaStreamError(f"implausible array size {size}")
        element = desc.name[1:2]
        value: list[Any] | bytes
        if element == "B":
            value = self.take(size)
        elif element in _PRIMITIVES:
            value = [self.field_value(element) for _ in range(size)]
        else:
            value = [self.content() for _ in range(size)]
        self.handles[index] = value
        return value


def read_stream(data: bytes) -> list[Any]:
    """Parse a whole serialization stream into its top-level contents."""
    if len(data) < 4:
        raise JavaStreamError("too short for a Java serialization stream")
    magic, version = struct.unpack_from(">HH", data, 0)
    if magic != STREAM_MAGIC or version != STREAM_VERSION:
        raise JavaStreamError("not a Java serialization stream (bad magic or version)")
    reader = _Reader(data)
    reader.pos = 4
    contents = []
    try:
        while reader.pos < len(data):
            contents.append(reader.content())
    except RecursionError as error:
        raise JavaStreamError("object graph nested too deeply") from error
    except (struct.error, UnicodeDecodeError, IndexError, TypeError) as error:
        raise JavaStreamError(f"malformed stream: {error}") from error
    return contents


def read_object(data: bytes) -> Any:
    """The first object of a stream (what ``ObjectInputStream.readObject`` returns)."""
    contents = read_stream(data)
    if not contents:
        raise JavaStreamError("empty stream")
    return contents[0]
