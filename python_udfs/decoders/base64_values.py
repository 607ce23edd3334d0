"""Base64 values (DataWorks BYTES columns, Lindorm/HBase cells, Debezium bytes).

Vendors encode with ``java.util.Base64`` (standard alphabet, padded). Some writers use the
URL-safe alphabet or drop padding; both are accepted. Anything else is reported, never raised.
"""

from __future__ import annotations

import binascii

ERROR_NOT_BASE64 = "invalid_base64"

_URL_SAFE = str.maketrans("-_", "+/")


def decode_base64(value: str | None) -> tuple[bytes | None, str | None, str | None]:
    """Return ``(bytes, text, error)``.

    ``text`` is the UTF-8 reading of the bytes, or ``None`` when they are not valid UTF-8
    (binary payloads). ``error`` is ``None`` or ``"invalid_base64: <detail>"``.
    """
    if value is None:
        return None, None, None
    cleaned = value.strip().translate(_URL_SAFE)
    missing = -len(cleaned) % 4
    if missing == 3:
        return None, None, f"{ERROR_NOT_BASE64}: length {len(cleaned)} is not a Base64 length"
    try:
        raw = binascii.a2b_base64(cleaned + "=" * missing, strict_mode=True)
    except (binascii.Error, ValueError) as error:
        return None, None, f"{ERROR_NOT_BASE64}: {error}"
    try:
        text: str | None = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    return raw, text, None
