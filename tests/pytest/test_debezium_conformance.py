"""Conformance of format `debezium` against ../shared/conformance/debezium/ (read in place).

- Flink (`flink-debezium-*.txt`): our change_log rendered as Flink's RowData changelog
  (`+I`, `-U`/`+U`, `-D`; schema id INT, name STRING, description STRING, weight FLOAT) must
  equal `flink-*.expected.txt`. The PostgreSQL REPLICA IDENTITY DEFAULT file, where Flink
  raises an error, has a documented result instead (updates without a before image; the
  delete without any image is quarantined as `missing_before_image`).
- Paimon (`paimon-table-*.expected.txt`): the live rows after each `## input:` step, rendered
  per the `# columns:` types as Flink `Row.toString`, must equal the `# expect:` rows.
- SeaTunnel: the asserted field values of `seatunnel-debezium-vendors.expected.txt` and the
  final rows of `seatunnel-e2e-debezium_data.expected.txt`.
- Every other in-scope corpus file lands without quarantine, one change per record.

Only JSON record lines are fed (`record_lines`). Each Flink file and each Paimon scenario gets
its own database name (the `source.db` text is rewritten, nothing else), as each upstream
test reads its own topic. Everything lands in five batches (one per Paimon step) and is built
once: the last step of each scenario is checked in `current_state`, earlier steps in
`change_log` as of their landing batch. What is not covered is in OUT_OF_SCOPE, with why.
"""

from __future__ import annotations

import base64
import datetime as dt
import re
import struct
from decimal import Decimal
from pathlib import Path

import pytest

from python_udfs.decoders.hbase_values import java_float_text

from .conftest import CONFORMANCE_DIR, record_lines

pytestmark = pytest.mark.dbt

CORPUS = CONFORMANCE_DIR / "debezium"

OUT_OF_SCOPE = {
    "paimon-bson-table-event-event-*.txt, paimon-bson-table-event.expected.txt":
        "MongoDB connector output (debezium-bson): Kafka key/value line pairs and MongoDB extended "
        "JSON documents, not the relational Debezium envelope this format reads",
    "paimon-avro-table-schema-alltype-debezium-avro-data-1.txt":
        "Avro-shaped key/value JSON (Confluent Avro converter rendering), no expectation; the "
        "format reads JSON converter output",
    "paimon-mysql-debezium-event-change.json, paimon-mysql-debezium-event-change.expected.txt":
        "one pretty-printed multi-line schema-history record with a licence comment: not a JSON-lines "
        "record (schema change events as single lines are covered by test_debezium_pipeline)",
    "paimon-table-computedcolumn.expected.txt":
        "computed columns (`_year = year(_date)`) are a Paimon sink feature, not CDC decoding; the "
        "file still lands as a plain change (smoke test)",
    "paimon-table-schema-schemaevolution.expected.txt step 5":
        "Paimon fails the job on a type change (`Cannot convert field age from type BIGINT to STRING`); "
        "a change log does not fail: the change lands with column_types age = string (asserted)",
    "paimon-table-schema-alltype.expected.txt geometry columns":
        "Paimon converts Debezium geometry structs (WKB) to GeoJSON; we keep the struct as JSON text "
        "with its `wkb` (asserted), no WKB decoding",
    "seatunnel-debezium-vendors.expected.txt f_bit64":
        "SeaTunnel reads the BIT(64) Base64 text into a BOOLEAN target (false); we keep Debezium's bytes",
    "seatunnel-debezium-vendors.expected.txt f48":
        "ZonedTime `09:00:00+08:00`: SeaTunnel drops the offset (09:00); we keep the text with its offset",
    "seatunnel-e2e-debezium_data.expected.txt column 31 (f_bit64)":
        "written to PostgreSQL as `(byte) 0` by the SeaTunnel sink: a sink mapping of BIT(64), not CDC decoding",
}


# --- rendering ---------------------------------------------------------------------------

def java_double(value: float) -> str:
    """Java Double.toString."""
    if value == 0:
        return "-0.0" if str(value).startswith("-") else "0.0"
    return _java_decimal_form(repr(value), value)


def java_float(value: float) -> str:
    """Java Float.toString of the value rounded to a 32-bit float."""
    rounded = struct.unpack(">f", struct.pack(">f", value))[0]
    return "0.0" if rounded == 0 else _java_decimal_form(java_float_text(rounded), rounded)


def _java_decimal_form(shortest: str, value: float) -> str:
    if 1e-3 <= abs(value) < 1e7:
        text = format(Decimal(shortest), "f")
        return text if "." in text else text + ".0"
    mantissa, exponent = f"{Decimal(shortest):e}".split("e")
    if "." not in mantissa:
        mantissa += ".0"
    return f"{mantissa}E{int(exponent)}"


def java_local_time(text: str) -> str:
    """Our `HH:mm:ss.fff…` as java.time.LocalTime.toString."""
    hms, _, fraction = text.partition(".")
    fraction = fraction.rstrip("0")
    if not fraction and hms.endswith(":00"):
        return hms[:-3]
    if not fraction:
        return hms
    width = 3 if len(fraction) <= 3 else 6 if len(fraction) <= 6 else 9
    return f"{hms}.{fraction.ljust(width, '0')}"


def java_local_date_time(text: str) -> str:
    """Our `yyyy-MM-dd HH:mm:ss.fff…` as java.time.LocalDateTime.toString."""
    date, _, time = text.partition(" ")
    return f"{date}T{java_local_time(time)}"


def java_bytes(value: str, reverse: bool = False) -> str:
    raw = base64.b64decode(value)
    raw = raw[::-1] if reverse else raw
    return "[" + ", ".join(str(b - 256 if b > 127 else b) for b in raw) + "]"


def render(value: str | None, column_type: str) -> str:
    """Our canonical text as Flink/Paimon Row.toString renders a value of `column_type`."""
    if value is None:
        return "NULL"
    kind = column_type.split("(")[0].upper()
    if kind in ("INT", "BIGINT", "SMALLINT", "TINYINT"):
        return str(int(value))
    if kind == "DOUBLE":
        return java_double(float(value))
    if kind == "FLOAT":
        return java_float(float(value))
    if kind == "DECIMAL":
        scale = int(column_type.split(",")[1].rstrip(")"))
        return format(Decimal(value), f".{scale}f")
    if kind in ("BINARY", "BYTES", "VARBINARY"):
        return java_bytes(value)
    if kind == "DATE":  # Paimon's Row.toString shows a DATE as its epoch day
        return str((dt.date.fromisoformat(value) - dt.date(1970, 1, 1)).days)
    if kind == "TIMESTAMP":
        return java_local_date_time(value)
    if kind == "TIME":  # ... and a TIME as milliseconds of the day
        h, m, s = value.split(":")
        return str(int(h) * 3600000 + int(m) * 60000 + int(Decimal(s) * 1000))
    return value


def flink_row(kind: str, image: dict) -> str:
    values = [
        str(int(image["id"])), image["name"], image["description"],
        "null" if image["weight"] is None else java_float(float(image["weight"])),
    ]
    return f"{kind}({','.join(values)})"


def flink_changelog(changes: list[dict]) -> list[str]:
    out = []
    for change in changes:
        if change["operation"] in ("insert", "read"):
            out.append(flink_row("+I", change["after"]))
        elif change["operation"] == "update":
            out.extend([flink_row("-U", change["before"]), flink_row("+U", change["after"])])
        else:
            out.append(flink_row("-D", change["before"]))
    return out


# --- corpus parsing ----------------------------------------------------------------------

def renamed(line: str, database: str) -> str:
    """The record with its `source.db` text replaced (the rest of the line is untouched)."""
    result, count = re.subn(r'("db"\s*:\s*")[^"]*(")', lambda m: m.group(1) + database + m.group(2), line, count=1)
    assert count == 1, line[:200]
    return result


def paimon_steps(expected: Path) -> list[dict]:
    """Steps of an expected file: inputs, columns, keys, and the rows (or error) expected."""
    steps, current, columns, keys = [], {"inputs": []}, None, None
    for line in expected.read_text(encoding="utf-8").splitlines():
        if line.startswith("## input: "):
            if "expect" in current:
                steps.append(current)
                current = {"inputs": []}
            current["inputs"].append(line.split(": ", 1)[1].split("/", 1)[1])
        elif line.startswith("# columns: "):
            columns = [c.strip().rsplit(" ", 1) for c in re.split(r",\s(?![^()]*\))", line.split(": ", 1)[1])]
            columns = [(name, kind.replace(".notNull()", "").replace("()", "")) for name, kind in columns]
        elif line.startswith("# primary-keys: "):
            keys = line.split(": ", 1)[1].split(",")
        elif line.startswith("# action PrimaryKeys: ") and keys is None:
            keys = line.split(": ", 1)[1].split(",")
        elif line.startswith("# expect:"):
            current["expect"] = []
        elif line.startswith("# expect error"):
            current["error"] = line
            current["expect"] = None
        elif line.startswith("+I[") and current.get("expect") is not None:
            current["expect"].append(line)
        current["columns"], current["keys"] = columns, keys
    steps.append(current)
    return steps


PAIMON_SCENARIOS = ["nullvalue", "schema-alltype", "schema-include", "schema-schemaevolution", "schemaevolution", "startupmode"]
FLINK_FILES = [
    "flink-debezium-data-schema-exclude", "flink-debezium-data-schema-include",
    "flink-debezium-postgres-data-schema-exclude", "flink-debezium-postgres-data-schema-include",
    "flink-debezium-postgres-data-replica-identity",
]
SEATUNNEL_FILES = ["seatunnel-debezium-mysql", "seatunnel-debezium-oracle", "seatunnel-debezium-postgresql", "seatunnel-debezium-sqlserver"]
SMOKE_FILES = sorted(
    p.name for p in CORPUS.glob("paimon-*.txt")
    if ("paimon-database-" in p.name or any(k in p.name for k in ("metadatacolumn", "watermark", "nestedtype", "computedcolumn")))
    and not p.name.endswith(".expected.txt")
)

# SeaTunnel's test reads schema-less messages with a target row type; the same knowledge,
# given as Debezium logical types per column (var cdc_debezium_column_types).
SEATUNNEL_TYPES = {
    "qa_source.all_types": {
        "f_date": "io.debezium.time.Date", "f_time": "io.debezium.time.MicroTime",
        "f_datetime": "io.debezium.time.Timestamp", "f_timestamp": "io.debezium.time.ZonedTimestamp",
        "f_timestamp1": "io.debezium.time.ZonedTimestamp",
    },
    "qa_source.dbo.full_types_1": {
        "f35": "io.debezium.time.Date", "f36": "io.debezium.time.NanoTime", "f37": "io.debezium.time.Time",
        "f38": "io.debezium.time.Timestamp", "f39": "io.debezium.time.NanoTimestamp", "f40": "io.debezium.time.Timestamp",
        "f41": "io.debezium.time.ZonedTimestamp", "f42": "io.debezium.time.ZonedTimestamp", "f43": "io.debezium.time.Timestamp",
    },
    "ORCL.QA_SOURCE.ALL_TYPES1": {
        "F2": "io.debezium.data.VariableScaleDecimal", "F7": "io.debezium.data.VariableScaleDecimal",
        "F9": "io.debezium.data.VariableScaleDecimal", "F27": "io.debezium.time.Timestamp",
        "F28": "io.debezium.time.MicroTimestamp", "F29": "io.debezium.time.MicroTimestamp",
        "F30": "io.debezium.time.ZonedTimestamp", "F31": "io.debezium.time.ZonedTimestamp",
        "F32": "io.debezium.time.ZonedTimestamp", "F33": "io.debezium.time.ZonedTimestamp",
    },
    "qa_source.public.all_types_1": {
        "f44": "io.debezium.time.Date", "f45": "io.debezium.time.MicroTime", "f46": "io.debezium.time.Time",
        "f48": "io.debezium.time.ZonedTime", "f49": "io.debezium.time.MicroTime", "f50": "io.debezium.time.Time",
        "f51": "io.debezium.time.MicroTimestamp", "f52": "io.debezium.time.Timestamp",
        "f53": "io.debezium.time.ZonedTimestamp", "f54": "io.debezium.time.ZonedTimestamp",
        "f55": "io.debezium.time.MicroTimestamp", "f56": "io.debezium.time.Timestamp",
        "f57": "io.debezium.time.ZonedTimestamp",
    },
}


def flink_database(name: str) -> str:
    return name.replace("flink-debezium-", "flink_").replace("-", "_")


def paimon_database(scenario: str) -> str:
    return "paimon_" + scenario.replace("-", "_")


def table_of(file_name: str) -> str:
    line = record_lines(CORPUS / file_name)[0]
    return re.search(r'"table"\s*:\s*"([^"]*)"', line).group(1)


# --- the pipeline ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def conformance(make_pipeline):
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.landing import land_files

    scenarios = {s: paimon_steps(CORPUS / f"paimon-table-{s}.expected.txt") for s in PAIMON_SCENARIOS}
    keys = {f"{flink_database(f)}.{'inventory.' if 'postgres' in f else ''}products": ["id"] for f in FLINK_FILES}
    keys.update({"qa_source.all_types": ["id"], "qa_source.dbo.full_types_1": ["id"],
                 "ORCL.QA_SOURCE.ALL_TYPES1": ["F1"], "qa_source.public.all_types_1": ["id"],
                 "mysql_cdc.mysql_cdc_e2e_source_table": ["id"]})
    tables = {}
    for scenario, steps in scenarios.items():
        tables[scenario] = f"{paimon_database(scenario)}.{table_of(steps[0]['inputs'][0])}"
        keys[tables[scenario]] = steps[-1]["keys"] or steps[0]["keys"]
    with_delete = f"{paimon_database('with-delete')}.product"
    pipeline = make_pipeline("dbzconf", {
        "cdc_formats": ["debezium"], "cdc_primary_keys": keys, "cdc_debezium_column_types": SEATUNNEL_TYPES,
    })

    # batch b holds step b of every Paimon scenario; batch 0 also everything else
    batches: list[dict[str, list[str]]] = [{} for _ in range(max(len(s) for s in scenarios.values()))]
    for scenario, steps in scenarios.items():
        for index, step in enumerate(steps):
            for name in step["inputs"]:
                batches[index][f"{scenario}--{name}"] = [renamed(r, paimon_database(scenario)) for r in record_lines(CORPUS / name)]
    first = batches[0]
    for name in FLINK_FILES:
        first[f"{name}.txt"] = [renamed(r, flink_database(name)) for r in record_lines(CORPUS / f"{name}.txt")]
    first["with-delete.txt"] = [renamed(r, paimon_database("with-delete"))
                                for r in record_lines(CORPUS / "paimon-table-schema-schemaevolution-debezium-data-with-delete.txt")]
    for name in [*SEATUNNEL_FILES, "seatunnel-e2e-debezium_data"]:
        first[f"{name}.txt"] = record_lines(CORPUS / f"{name}.txt")
    for name in SMOKE_FILES:
        first[f"smoke--{name}"] = record_lines(CORPUS / name)

    pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
    spark = SparkSession.builder.getOrCreate()
    for index, batch in enumerate(batches):
        paths = []
        for name, records in batch.items():
            path = pipeline.work_dir / "landing" / f"batch-{index}" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(r + "\n" for r in records), encoding="utf-8")
            paths.append(path)
        land_files(spark, "debezium", paths, project_dir=Path(pipeline.work_dir), landing_schema=f"{pipeline.schema}_landing",
                   scratch_dir=pipeline.work_dir / "scratch", progress=False)
    pipeline.build()
    landed_at = [r["landed_at"] for r in pipeline.sql(
        "select distinct landed_at from {s}_landing.raw_debezium order by landed_at")]
    return {"pipeline": pipeline, "scenarios": scenarios, "tables": tables, "landed_at": landed_at, "with_delete": with_delete}


def changes(pipeline, table_id):
    return pipeline.sql(f"select * from {{s}}.change_log where table_id = '{table_id}' order by sort_key")


# --- Flink --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [f for f in FLINK_FILES if "replica-identity" not in f])
def test_flink_changelog(conformance, name):
    pipeline = conformance["pipeline"]
    table = f"{flink_database(name)}.{'inventory.' if 'postgres' in name else ''}products"
    expected = (CORPUS / f"{name}.expected.txt").read_text(encoding="utf-8").splitlines()
    assert flink_changelog(changes(pipeline, table)) == expected


def test_flink_replica_identity_default(conformance):
    """Flink raises on an update without before image; we apply the full after image (the
    update keeps before = null) and quarantine the delete that carries no image at all."""
    pipeline = conformance["pipeline"]
    name = "flink-debezium-postgres-data-replica-identity"
    assert (CORPUS / f"{name}.expected.txt").read_text().startswith("EXCEPTION: The \"before\" field of UPDATE message is null")
    rows = changes(pipeline, f"{flink_database(name)}.inventory.products")
    assert [r["operation"] for r in rows] == ["read"] * 9 + ["update", "update", "insert", "insert", "update", "update"]
    assert all(r["before"] is None and r["previous_row_key"] is None for r in rows)
    quarantined = pipeline.sql(
        "select reason_code, vendor_operation from {s}.quarantine where origin like '%" + name + "%'")
    assert quarantined == [{"reason_code": "missing_before_image", "vendor_operation": "d"}]
    # the live rows equal the complete stream's, except the unapplied delete of 111
    def live(t):
        return {r["row_key"]: r["row_image"] for r in pipeline.sql(
            f"select row_key, row_image from {{s}}.current_state where table_id = '{t}' and not is_deleted")}
    complete = live(f"{flink_database('flink-debezium-postgres-data-schema-exclude')}.inventory.products")
    partial = live(f"{flink_database(name)}.inventory.products")
    assert set(partial) == set(complete) | {"111"}
    assert all(partial[k] == complete[k] for k in complete)


# --- Paimon -------------------------------------------------------------------------------

ALLTYPE_GEOMETRY = {"_point", "_geometry", "_linestring", "_polygon", "_multipoint", "_multiline", "_multipolygon", "_geometrycollection"}


def live_rows(conformance, scenario, step_index, last):
    """Live rows of a scenario after a step: current_state for the last step, else the
    change log as of that step's landing batch."""
    pipeline, table = conformance["pipeline"], conformance["tables"][scenario]
    if last:
        rows = pipeline.sql(f"select row_image as image from {{s}}.current_state where table_id = '{table}' and not is_deleted")
    else:
        bound = conformance["landed_at"][step_index]
        rows = pipeline.sql(
            f"""select latest.image from (
                  select max_by(named_struct('operation', operation, 'image', after), sort_key) as latest
                  from {{s}}.change_log
                  where table_id = '{table}' and landed_at <= timestamp'{bound}'
                  group by row_key) where latest.operation <> 'delete'"""
        )
    return [r["image"] for r in rows]


def expected_pattern(image: dict, columns: list[tuple[str, str]], scenario: str) -> str:
    """Regex matching the Row.toString of our row; out-of-scope columns match anything."""
    parts = []
    for name, kind in columns:
        value = image.get(name)
        if scenario == "schema-alltype" and name in ALLTYPE_GEOMETRY:
            assert '"wkb"' in value, name           # kept as Debezium's struct JSON text
            parts.append(".*?")
            continue
        if scenario == "schema-alltype" and name == "_bit":
            # io.debezium.data.Bits bytes are little-endian; Paimon shows them big-endian
            parts.append(re.escape(java_bytes(value, reverse=True)))
            continue
        text = render(value, kind)
        if scenario == "schema-alltype" and name.startswith("_fixed"):
            # DECIMAL(40,3) > 38 digits: a string column; exact with its scale here,
            # Paimon's text drops the trailing zero
            text = text.rstrip("0")
        parts.append(re.escape(text))
    return r"\+I\[" + ", ".join(parts) + r"\]"


@pytest.mark.parametrize("scenario", PAIMON_SCENARIOS)
def test_paimon_live_rows_after_each_step(conformance, scenario):
    steps = conformance["scenarios"][scenario]
    checked = 0
    for index, step in enumerate(steps):
        if step.get("expect") is None:
            continue
        rows = live_rows(conformance, scenario, index, last=index == len(steps) - 1)
        patterns = sorted(expected_pattern(image, step["columns"], scenario) for image in rows)
        expected = sorted(step["expect"])
        assert len(patterns) == len(expected), (scenario, index, rows)
        unmatched = list(expected)
        for pattern in patterns:
            match = next((e for e in unmatched if re.fullmatch(pattern, e)), None)
            assert match is not None, (scenario, index, pattern, unmatched)
            unmatched.remove(match)
        checked += 1
    assert checked >= 1


def test_paimon_type_change_does_not_fail(conformance):
    """Step 5 of schema-schemaevolution fails the Paimon job (age BIGINT -> STRING): here the
    change lands, and its column types say what the message said."""
    pipeline = conformance["pipeline"]
    rows = changes(pipeline, conformance["tables"]["schema-schemaevolution"])
    ages = [(r["after"]["id"], r["after"].get("age"), r["column_types"].get("age")) for r in rows]
    # each change carries its own message's types (Paimon's table keeps the widest, BIGINT)
    assert ages == [("101", None, None), ("103", "18", "int"), ("104", "24", "bigint"), ("105", "24", "int"), ("105", "24", "string")]
    assert pipeline.sql("select * from {s}.quarantine where origin like '%schema-schemaevolution%'") == []


def test_paimon_schema_of_a_delete_only_topic(conformance):
    """with-delete: Paimon infers id, name, description, weight, all STRING, from a topic holding
    one delete ({"schema": null, "payload": …}); our change carries the same columns and types."""
    expected = [
        line.split("\t")[1:] for line in (CORPUS / "paimon-table-schema-schemaevolution-with-delete.expected.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    rows = changes(conformance["pipeline"], conformance["with_delete"])
    assert len(rows) == 1 and rows[0]["operation"] == "delete"
    assert rows[0]["column_types"] == {name: kind.lower() for name, kind in expected}


# --- SeaTunnel ---------------------------------------------------------------------------

def seatunnel_matches(ours: str | None, target: str, expected: str) -> bool:
    if expected == "null":
        return ours is None
    if target in ("INT", "LONG", "SHORT", "BYTE"):
        return int(ours) == int(re.sub(r"^\((byte|short)\)|L$", "", expected))
    if target == "BOOLEAN":
        return (ours in ("true", "1")) == (expected == "true")
    if target in ("FLOAT", "DOUBLE"):
        return float(ours) == float(expected.rstrip("fd"))
    if target.startswith("DECIMAL"):
        return Decimal(ours) == Decimal(re.fullmatch(r"BigDecimal\((.*)\)", expected).group(1))
    if target == "BYTES":
        raw = base64.b64decode(ours)
        text = re.fullmatch(r'bytes "(.*)"', expected)
        return raw == (text.group(1).encode() if text else bytes(int(b) for b in expected[7:-1].split(",")))
    if target == "LOCAL_TIME":
        return java_local_time(ours) == expected
    if target == "LOCAL_DATE_TIME":
        return java_local_date_time(ours) == expected
    return ours == expected


def test_seatunnel_vendor_field_values(conformance):
    pipeline = conformance["pipeline"]
    rows = [line.split("\t") for line in (CORPUS / "seatunnel-debezium-vendors.expected.txt").read_text().splitlines()
            if line and not line.startswith("#")][1:]
    skipped = {"f_bit64", "f48"}
    checked = 0
    for file_name, column, target, expected in rows:
        if column in skipped:
            continue
        name = file_name.split("/")[-1]
        change = pipeline.sql("select * from {s}.change_log where origin like '%" + name + "'")
        assert len(change) == 1 and change[0]["operation"] == "read", name
        ours = change[0]["after"].get(column)
        assert seatunnel_matches(ours, target, expected), (name, column, target, expected, ours)
        checked += 1
    assert checked == len(rows) - 2
    systems = pipeline.sql("select source_system, table_id, source_position from {s}.change_log where origin like '%seatunnel-debezium-%' order by 1")
    assert [(r["source_system"], r["table_id"]) for r in systems] == [
        ("mysql", "qa_source.all_types"), ("oracle", "ORCL.QA_SOURCE.ALL_TYPES1"),
        ("postgresql", "qa_source.public.all_types_1"), ("sqlserver", "qa_source.dbo.full_types_1"),
    ]
    # PostgreSQL lsn beyond the int64 range, kept verbatim
    assert systems[2]["source_position"] == "-9223372036854776000"


def java_literal_matches(ours: str | None, literal: str) -> bool:
    if literal == "null":
        return ours is None
    if literal.startswith('"'):
        return ours == literal[1:-1].replace('\\"', '"')
    if literal.startswith("LocalDate.parse("):
        return ours == literal[17:-2]
    if literal.startswith("LocalDateTime.parse("):
        return java_local_date_time(ours) == literal[21:-2]
    if literal.startswith("LocalTime.parse("):
        return java_local_time(ours) == literal[17:-2]
    if literal.startswith("new BigDecimal("):
        return Decimal(ours) == Decimal(literal[15:-1])
    if literal in ("true", "false"):
        return ours == literal
    if literal.endswith("f"):
        return java_float(float(ours)) == java_float(float(literal[:-1]))
    if "." in literal:
        return float(ours) == float(literal)
    return int(ours) == int(re.sub(r"^\((byte|short)\)\s*|L$", "", literal))


def test_seatunnel_e2e_final_rows(conformance):
    pipeline = conformance["pipeline"]
    expected = [line.split("\t") for line in (CORPUS / "seatunnel-e2e-debezium_data.expected.txt").read_text().splitlines()
                if line and not line.startswith("#")]
    schema_line = record_lines(CORPUS / "seatunnel-e2e-debezium_data.txt")[0]
    columns = re.findall(r'"field":"([^"]+)"', schema_line.split('"field":"before"')[0].split('"field":"after"')[-1])
    state = {r["row_key"]: r["row_image"] for r in pipeline.sql(
        "select row_key, row_image from {s}.current_state where table_id = 'mysql_cdc.mysql_cdc_e2e_source_table'")}
    ignored = {1, 2, 3, 5, 6, 34, 31}  # the test's own nulled columns, and f_bit64 (OUT_OF_SCOPE)
    for row in expected:
        image = state[row[0]]
        assert len(row) == len(columns) == 42
        for index, (column, literal) in enumerate(zip(columns, row)):
            if index not in ignored:
                assert java_literal_matches(image.get(column), literal), (row[0], column, literal, image.get(column))


# --- everything else in scope -----------------------------------------------------------

def test_other_corpus_files_land_without_quarantine(conformance):
    pipeline = conformance["pipeline"]
    for name in SMOKE_FILES:
        count = len(record_lines(CORPUS / name))
        rows = pipeline.sql(
            "select event_class, count(*) as n from {s}_staging.stg_debezium__events "
            "where origin like '%smoke--" + name + "' group by event_class"
        )
        assert rows == [{"event_class": "change", "n": count}], name
    quarantined = pipeline.sql("select origin, reason_code from {s}.quarantine")
    assert [r["reason_code"] for r in quarantined] == ["missing_before_image"]  # replica identity delete
    assert quarantined[0]["origin"].endswith("flink-debezium-postgres-data-replica-identity.txt")


def test_out_of_scope_is_explained():
    assert all(len(reason) > 40 for reason in OUT_OF_SCOPE.values())
