"""The bundled DTS Avro samples (samples/dts_avro/), written with fastavro from readable records.

DTS Avro is binary, so the samples are generated, not typed: this module holds the records
in the readable form of :func:`python_udfs.decoders.dts_avro.datum_from_readable` and writes

* ``samples/dts_avro/mysql_shop_orders.dtsavro``: a MySQL stream as length-prefixed frames
  (4-byte big-endian length + the Kafka message value), the layout a consumer dump writes;
* ``samples/dts_avro/oracle_hr_employees.b64``: an Oracle stream (full load then changes) as
  Base64 lines, one Kafka message value per line.

Regenerate with ``.venv/bin/python -m tests.pytest.dts_avro_samples``; the test
``test_dts_avro_values.py::test_bundled_samples_are_generated_by_this_script`` fails when the
committed files differ from what this script writes.
"""

from __future__ import annotations

import base64
from pathlib import Path

from python_udfs.decoders.dts_avro import encode_readable

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples" / "dts_avro"

MYSQL = {"sourceType": "MySQL", "version": "8.0.28"}
ORACLE = {"sourceType": "Oracle", "version": "19.3.0.0.0"}

ORDER_FIELDS = [
    ["id", 8], ["customer", 253], ["amount", 246], ["qty", 3], ["weight", 4], ["created", 10],
    ["updated_at", 12], ["paid_at", 7], ["slot", 11], ["model_year", 13], ["attrs", 245],
    ["photo", 252], ["location", 255], ["status", 247],
]


def _order(order_id, customer, amount, status, paid_at=None, *, photo="iVBORw0KGgo="):
    return [
        {"Integer": {"precision": 20, "value": str(order_id)}},
        {"Character": {"charset": "utf8mb4", "text": customer}},
        {"Decimal": {"value": amount, "precision": 10, "scale": 2}},
        {"Integer": {"precision": 11, "value": "3"}},
        {"Float": {"value": 1.25, "precision": 12, "scale": 0}},
        {"DateTime": {"year": 2024, "month": 10, "day": 27}},
        {"DateTime": {"year": 2024, "month": 10, "day": 27, "hour": 11, "minute": 35, "second": 0, "millis": 123456}},
        {"Timestamp": {"timestamp": paid_at, "millis": 500000}} if paid_at else "NULL",
        {"DateTime": {"hour": 9, "minute": 30, "second": 0}},
        {"DateTime": {"year": 2024}},
        {"TextObject": {"type": "JSON", "value": '{"gift": true}'}},
        {"BinaryObject": {"type": "BLOB", "base64": photo}},
        {"BinaryGeometry": {"type": "POINT", "hex": "0101000000000000000000f03f0000000000000040"}},
        {"TextObject": {"type": "ENUM", "value": status}},
    ]


def _mysql(record_id, operation, **extra):
    base = {"id": record_id, "sourceTimestamp": 1730028900 + record_id % 100, "operation": operation,
            "source": MYSQL, "sourcePosition": f"{4200 + record_id}@3@1730028900", "sourceTxid": "",
            "bornTimestamp": (1730028900 + record_id % 100) * 1000 + 250}
    return {**base, **extra}


def _orders(record_id, operation, **extra):
    return _mysql(record_id, operation, **{"objectName": "shop.orders", "fields": ORDER_FIELDS,
                  "tags": {"pk_uk_info": '{"PRIMARY":["id"]}'}, "sourceTxid": "tx-7", **extra})


MYSQL_SHOP_ORDERS = [
    _mysql(100, "BEGIN", sourceTxid="tx-7"),
    _orders(101, "INSERT", afterImages=_order(1, "Zoë 张", "49.90", "new")),
    _orders(102, "INSERT", afterImages=_order(2, "bob", "1234567.5", "new")),
    _mysql(103, "COMMIT", sourceTxid="tx-7"),
    _mysql(104, "HEARTBEAT"),
    _mysql(105, "DDL", objectName="shop.orders", afterImages="ALTER TABLE `orders` ADD COLUMN `note` varchar(64)"),
    _mysql(106, "BEGIN", sourceTxid="tx-8"),
    _orders(107, "UPDATE", sourceTxid="tx-8", beforeImages=_order(1, "Zoë 张", "49.90", "new"),
            afterImages=_order(1, "Zoë 张", "49.90", "paid", paid_at=1730029000)),
    _orders(108, "DELETE", sourceTxid="tx-8", beforeImages=_order(2, "bob", "1234567.5", "new")),
    _mysql(109, "COMMIT", sourceTxid="tx-8"),
]

EMPLOYEE_FIELDS = [["EMPLOYEE_ID", 2], ["NAME", 1], ["SALARY", 2], ["HIRED", 12], ["UPDATED_AT", 181], ["NOTES", 112], ["BADGE", 23]]


def _employee(employee_id, name, salary, *, notes="CLOB text", updated_hour=10):
    return [
        {"Decimal": {"value": str(employee_id), "precision": 6, "scale": 0}},
        {"Character": {"charset": "AL32UTF8", "text": name}},
        {"Decimal": {"value": salary, "precision": 8, "scale": 2}},
        {"DateTime": {"year": 2019, "month": 3, "day": 1, "hour": 0, "minute": 0, "second": 0}},
        {"TimestampWithTimeZone": {"value": {"year": 2024, "month": 10, "day": 27, "hour": updated_hour, "minute": 0, "second": 5, "millis": 250000}, "timezone": "+08:00"}},
        {"TextObject": {"type": "CLOB", "value": notes}},
        {"BinaryObject": {"type": "RAW", "hex": "cafe01"}},
    ]


def _hr(record_id, operation, **extra):
    base = {"id": record_id, "sourceTimestamp": 1730000000 + record_id, "operation": operation, "source": ORACLE,
            "sourcePosition": f"{91000 + record_id}@0@1730000000", "objectName": "HR.EMPLOYEES",
            "fields": EMPLOYEE_FIELDS, "tags": {"pk_uk_info": '{"PRIMARY":["EMPLOYEE_ID"]}'}}
    return {**base, **extra}


ORACLE_HR_EMPLOYEES = [
    _hr(1, "INIT", afterImages=_employee(100, "Steven", "24000.00")),
    _hr(2, "INIT", afterImages=_employee(101, "Neena 王", "17000")),
    _hr(10, "INSERT", sourceTxid="5.12.3301", afterImages=_employee(102, "Lex", "17000.5")),
    # supplemental logging of the changed columns only: the others are EmptyObject NONE
    _hr(11, "UPDATE", sourceTxid="5.13.3302",
        beforeImages=_employee(100, "Steven", "24000.00"),
        afterImages=[{"Decimal": {"value": "100", "precision": 6, "scale": 0}}, "NONE",
                     {"Decimal": {"value": "25000", "precision": 8, "scale": 2}}, "NONE", "NONE", "NULL", "NONE"]),
    _hr(12, "DELETE", sourceTxid="5.14.3303", beforeImages=_employee(101, "Neena 王", "17000")),
    _hr(13, "CHECKPOINT", objectName=None, fields=None, tags={}),
]


def frames(records: list[dict]) -> bytes:
    """Length-prefixed frames: 4-byte big-endian length + the binary record, per record."""
    out = bytearray()
    for record in records:
        value = encode_readable(record)
        out += len(value).to_bytes(4, "big") + value
    return bytes(out)


def base64_lines(records: list[dict]) -> str:
    return "".join(base64.b64encode(encode_readable(r)).decode("ascii") + "\n" for r in records)


def sample_files() -> dict[str, bytes]:
    return {
        "mysql_shop_orders.dtsavro": frames(MYSQL_SHOP_ORDERS),
        "oracle_hr_employees.b64": base64_lines(ORACLE_HR_EMPLOYEES).encode("ascii"),
    }


def main() -> None:
    SAMPLES_DIR.mkdir(parents=True, exist_ok=True)
    for name, data in sample_files().items():
        (SAMPLES_DIR / name).write_bytes(data)
        print(f"wrote {SAMPLES_DIR / name} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
