"""Canal conformance: ../shared/conformance/canal/ (Apache Flink, Apache Paimon and Apache
SeaTunnel test corpora, read in place), expected file by expected file.

- Flink `flink-*.expected.txt`: our change_log in sort_key order, each UPDATE as its before and
  after image, INIT as an insert, rendered like Flink's RowData.toString for the physical schema
  (id INT, name STRING, description STRING, weight FLOAT).
- Paimon `paimon-*.expected.txt`: the live rows of current_state after each `## input:` step
  (the step's files land as one batch, then dbt runs), rendered per the `# columns:` Paimon types.
  Paimon's table-level action writes every message of its topic into ONE target table whatever
  the source table; we keep source tables apart, so for those files the rows of the source tables
  are merged by row key (latest sort_key wins) before comparing.
- SeaTunnel e2e: the re-encoded message sequence (job 1) and the final sink rows (job 2).

Files that share no table run in one pipeline (one dbt run per step for the whole group);
files that are out of scope are listed in OUT_OF_SCOPE with the reason and skipped.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import re
import struct
from decimal import Decimal
from pathlib import Path

import pytest

from .conftest import CONFORMANCE_DIR, PROJECT_DIR, record_lines

pytestmark = pytest.mark.dbt

CANAL_DIR = CONFORMANCE_DIR / "canal"

OUT_OF_SCOPE = {
    "paimon-table-computedcolumn": "computed column `_year=year(_date)` is a Paimon action option; a change log "
                                   "carries the source columns only",
    "paimon-table-computedcolumn-2": "computed column over case-insensitive names (`_YEAR=year(_DATE)`) is a Paimon "
                                     "catalog/action option",
    "paimon-table-initialemptytopic": "computed column `_year` (and a Paimon startup from an empty topic)",
    "paimon-table-nononddldata": "Paimon expects its action to fail (no table schema from a DDL-only topic); we record "
                                 "the two ALTERs in schema_changes and there is no row to compare",
    # data files without an expected file (Paimon asserts them in Java, about its own options)
    **{f"paimon-database-audit-time-canal-data-{i}": "audit-time: Paimon's computed audit-time column option; an insert "
       "and two updates of one row with the same es and id (a change log has no such column)" for i in (1, 2, 3)},
    "paimon-database-multipletablepartitionkeys-canal-data-1": "partition keys given as a Paimon action option for "
                                                               "several tables",
    "paimon-database-specify-keys-canal-data-1": "primary/partition keys specified as a Paimon action option instead "
                                                 "of pkNames",
    "paimon-table-optionschange-canal-data-1": "Paimon table options changed between action runs",
    "paimon-table-optionschange-canal-data-2": "Paimon table options changed between action runs (second run)",
    "paimon-table-watermark-canal-data-1": "Paimon watermark options (tag creation by watermark)",
}

# Data files without an expected file whose meaning is parsing or final state: landed in one
# batch in their own pipeline; per file the change_log rows (operation, row_key) and whether
# the file is quarantined (reason) instead.
SMOKE = {
    # pkNames ["k1"] with the data key written "K1" in two rows: MySQL column names are
    # case-insensitive, the key is found (macro key_text)
    "paimon-database-case-insensitive-canal-data-1": {"changes": [("insert", "5"), ("insert", "7"), ("insert", "8")]},
    # no database and no table: nothing to route it to (a Canal topic may hold many tables)
    "paimon-database-incomplete-canal-data-1": {"quarantined": "missing_table"},
    "paimon-database-tostring-canal-data-1": {"changes": [("insert", "5"), ("insert", "7")]},
    # include/exclude table filters are Paimon options: every table lands
    "paimon-database-include-topic0-canal-data-1": {"changes": [("insert", "1"), ("insert", "3"), ("insert", "3"),
                                                                ("insert", "3")]},
    # no mysqlType and no sqlType at all: columns typed string
    "paimon-table-metadatacolumn-canal-data-1": {"changes": [("insert", "101")]},
}

# Columns compared by neither side, with the reason (deliberate differences).
COLUMN_DIFFERENCES = {
    "paimon-table-alltype": {
        "_enum": "Canal sends the ENUM index (`1`); Paimon maps it to the label (`value1`) from the column "
                 "definition; the change log keeps Canal's text",
        "_set": "Canal sends the SET bitmask (`3`); Paimon maps it to the members (`[a, b]`)",
        **{column: "Canal sends spatial values as WKB bytes (ISO-8859-1 text); Paimon renders GeoJSON"
           for column in ["_point", "_geometry", "_linestring", "_polygon", "_multipoint", "_multiline",
                          "_multipolygon", "_geometrycollection"]},
    },
}

# Steps whose expectation we deliberately do not meet, with what we assert instead.
STEP_DIFFERENCES = {
    ("paimon-table-incomplete", 0): "the two messages carry no database and no table; Paimon's table-level "
                                    "action writes them to its one target table, we quarantine them as "
                                    "missing_table (a Canal topic may hold many tables)",
}

# Database-level action options: table name prefix and suffix added by Paimon.
TABLE_AFFIXES = {"paimon-database-prefixsuffix": ("test_prefix_", "_test_suffix")}

# Files sharing no table_id run together; each group is one pipeline.
GROUPS = {
    "a": ["flink-canal-data", "paimon-table-schemaevolution", "paimon-database-prefixsuffix", "paimon-table-alltype"],
    "b": ["flink-canal-data-7efdf0da", "paimon-table-schemaevolutionmissingddl", "paimon-table-incomplete",
          "paimon-table-nonpk", "paimon-database-schemaevolution"],
    "c": ["flink-canal-data-with-init", "paimon-table-event", "paimon-table-schemaevolutionmultiple",
          "paimon-table-typenochange"],
    "d": ["flink-canal-data-filter-table", "paimon-table-startupmode", "paimon-table-tostring",
          "seatunnel-e2e-canal_data"],
}
GROUP_OF = {name: group for group, names in GROUPS.items() for name in names}
INTERMEDIATE_MODELS = ["stg_canal__events", "int_update_halves_paired", "int_rekeyed_changes", "int_redelivered_changes",
                       "change_log", "schema_changes", "int_current_state_layers", "current_state", "quarantine"]

FLINK = ["flink-canal-data", "flink-canal-data-7efdf0da", "flink-canal-data-with-init", "flink-canal-data-filter-table"]
# Flink's filter-table test: database '^my.*', table '^prod.*' (Pattern.matches: the whole name).
FLINK_FILTERS = {"flink-canal-data-filter-table": (r"my.*", r"prod.*")}
PAIMON = sorted(p.name[: -len(".expected.txt")] for p in CANAL_DIR.glob("paimon-*.expected.txt")) if CANAL_DIR.exists() else []


# --------------------------------------------------------------------------- rendering (Java)

def _float32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def java_float_text(text: str, single: bool) -> str:
    """Float.toString / Double.toString of a decimal text (shortest round-trip digits)."""
    x = float(text)
    if single:
        x = _float32(x)
        shortest = next(s for s in (f"{x:.{p}g}" for p in range(1, 10)) if _float32(float(s)) == x)
    else:
        shortest = repr(x)
    if x == 0:
        return "-0.0" if str(x).startswith("-") else "0.0"
    value = Decimal(shortest)
    if 1e-3 <= abs(x) < 1e7:
        plain = format(value, "f")
        return plain if "." in plain else plain + ".0"
    sign, digits, exponent = value.normalize().as_tuple()
    mantissa = str(digits[0]) + "." + ("".join(map(str, digits[1:])) or "0")
    return f"{'-' if sign else ''}{mantissa}E{len(digits) + exponent - 1}"


def java_local_date_time(text: str) -> str:
    """LocalDateTime.toString of MySQL DATETIME text (seconds and fraction omitted when zero)."""
    date, _, clock = text.partition(" ")
    hms, _, fraction = clock.partition(".")
    hour, minute, second = hms.split(":")
    nanos = int((fraction + "000000000")[:9]) if fraction else 0
    result = f"{date}T{hour}:{minute}"
    if int(second) or nanos:
        result += f":{second}"
    if nanos:
        digits = f"{nanos:09d}"
        result += "." + (digits[:3] if nanos % 1_000_000 == 0 else digits[:6] if nanos % 1000 == 0 else digits)
    return result


def render(value: str | None, paimon_type: tuple[str, tuple[int, ...]]) -> str:
    """Our canonical text rendered the way Paimon's Row.toString shows the column's type."""
    if value is None:
        return "NULL"
    name, args = paimon_type
    if name in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        return str(int(value))
    if name == "BOOLEAN":
        return "true" if value.strip().lower() in ("1", "true") else "false"
    if name == "DECIMAL":
        scale = args[1] if len(args) > 1 else 0
        return format(Decimal(value).quantize(Decimal(1).scaleb(-scale)), "f")
    if name in ("FLOAT", "DOUBLE"):
        return java_float_text(value, single=name == "FLOAT")
    if name in ("BINARY", "VARBINARY", "BYTES"):
        # binary values are Base64 of the bytes (Canal's ISO-8859-1 text re-encoded)
        return "[" + ", ".join(str(b - 256 if b > 127 else b) for b in base64.b64decode(value, validate=True)) + "]"
    if name == "DATE":
        return str((dt.date.fromisoformat(value) - dt.date(1970, 1, 1)).days)
    if name == "TIMESTAMP":
        return java_local_date_time(value)
    if name == "TIME":
        hms, _, fraction = value.partition(".")
        hour, minute, second = map(int, hms.split(":"))
        return str((hour * 3600 + minute * 60 + second) * 1000 + int((fraction + "000")[:3] if fraction else 0))
    return value


def flink_row(kind: str, image: dict) -> str:
    """RowData.toString for (id INT, name STRING, description STRING, weight FLOAT)."""
    def text(value, convert=str):
        return "null" if value is None else convert(value)
    return (f"{kind}({text(image.get('id'), lambda v: str(int(v)))},{text(image.get('name'))},"
            f"{text(image.get('description'))},{text(image.get('weight'), lambda v: java_float_text(v, True))})")


# --------------------------------------------------------------------------- expected files

COLUMN = re.compile(r"(.+?) ([A-Z]+)\(([0-9, ]*)\)(?:\.notNull\(\))?(?:, |$)")


def parse_columns(text: str) -> list[tuple[str, tuple[str, tuple[int, ...]]]]:
    columns, position = [], 0
    while position < len(text):
        match = COLUMN.match(text, position)
        assert match, f"cannot parse columns at {text[position:]!r}"
        args = tuple(int(a) for a in match.group(3).replace(" ", "").split(",") if a)
        columns.append((match.group(1), (match.group(2), args)))
        position = match.end()
    return columns


def split_row(line: str) -> list[str]:
    """`+I[a, [1, 2], {"x":1}]` -> values (commas inside brackets and braces kept)."""
    body, values, depth, current = line[len("+I["):-1], [], 0, ""
    index = 0
    while index < len(body):
        char = body[index]
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        if depth == 0 and body.startswith(", ", index):
            values.append(current)
            current, index = "", index + 2
            continue
        current += char
        index += 1
    values.append(current)
    return values


def parse_paimon(name: str) -> list[dict]:
    """Steps: {"inputs": [paths], "expects": [{"table", "columns", "rows"}]}."""
    steps, current, columns = [], None, None
    for line in (CANAL_DIR / f"{name}.expected.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("## input:"):
            if current is None or current["expects"]:
                current = {"inputs": [], "expects": []}
                steps.append(current)
            current["inputs"].append(CONFORMANCE_DIR / line.split(":", 1)[1].strip())
        elif line.startswith("# columns:"):
            columns = parse_columns(line.split(":", 1)[1].strip())
        elif line.startswith("# expect table "):
            table = re.match(r"# expect table (\S+) \(pk ([^)]*)\):", line).group(1)
            current["expects"].append({"table": table, "columns": columns, "rows": []})
        elif line.startswith("# expect:"):
            current["expects"].append({"table": None, "columns": columns, "rows": []})
        elif line.startswith("+I["):
            current["expects"][-1]["rows"].append(split_row(line))
    return steps


def input_plan(name: str) -> list[list[Path]]:
    """The files landed at each step for one expected file."""
    if name.startswith("paimon-"):
        return [step["inputs"] for step in parse_paimon(name)]
    return [[CANAL_DIR / f"{name.removesuffix('.expected')}.txt"]]


def input_tables(paths: list[Path]) -> set[str]:
    tables = set()
    for path in paths:
        for line in record_lines(path):
            message = json.loads(line)
            if message.get("table") and not message.get("isDdl"):
                tables.add(".".join(p for p in (message.get("database"), message["table"]) if p))
    return tables


# --------------------------------------------------------------------------- running a group

def land_batch(pipeline, paths: list[Path]) -> None:
    """The record lines of each corpus file (as Paimon's harness feeds them) as one landing batch."""
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.landing import land_files

    if not getattr(pipeline, "landing_tables_created", False):
        pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
        pipeline.landing_tables_created = True
    written = []
    for path in paths:
        target = pipeline.work_dir / "landing" / "canal" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(line + "\n" for line in record_lines(path)), encoding="utf-8")
        written.append(target)
    land_files(SparkSession.builder.getOrCreate(), "canal", written, project_dir=PROJECT_DIR,
               landing_schema=f"{pipeline.schema}_landing", scratch_dir=pipeline.work_dir / "scratch",
               progress=False)


def run_group(make_pipeline, group: str) -> dict:
    pipeline = make_pipeline(f"canalconf{group}", {"cdc_formats": ["canal"]})
    plans = {name: input_plan(name) for name in GROUPS[group]}
    snapshots = {name: [] for name in plans}
    steps = max(len(plan) for plan in plans.values())
    for step in range(steps):
        land_batch(pipeline, [path for plan in plans.values() if step < len(plan) for path in plan[step]])
        if step == steps - 1:
            pipeline.build()            # the last step also runs every dbt data test
        else:
            pipeline.dbt("run", "--select", *INTERMEDIATE_MODELS)
        state = pipeline.sql(
            "select table_id, row_key, row_image, is_deleted, sort_key, column_types from {s}.current_state")
        quarantine = pipeline.sql("select origin, reason_code from {s}.quarantine")
        for name, plan in plans.items():
            if step < len(plan):
                snapshots[name].append({"state": state, "quarantine": quarantine})
    return {"pipeline": pipeline, "snapshots": snapshots}


@pytest.fixture(scope="module")
def conformance(make_pipeline):
    if not CANAL_DIR.exists():
        pytest.skip("../shared/conformance is not beside the checkout")
    cache: dict[str, dict] = {}

    def get(name: str) -> dict:
        group = GROUP_OF[name]
        if group not in cache:
            cache[group] = run_group(make_pipeline, group)
        return cache[group]

    return get


def origin_of(name_or_path) -> str:
    return f"%/{Path(str(name_or_path)).name}"


# --------------------------------------------------------------------------- tests

@pytest.mark.parametrize("name", FLINK)
def test_flink_changelog(conformance, name):
    pipeline = conformance(name)["pipeline"]
    changes = pipeline.sql(
        "select operation, before, after, source_database, source_table from {s}.change_log "
        f"where origin like '{origin_of(name + '.txt')}' order by sort_key"
    )
    database_pattern, table_pattern = FLINK_FILTERS.get(name, (".*", ".*"))
    rendered = []
    for change in changes:
        if not (re.fullmatch(database_pattern, change["source_database"]) and re.fullmatch(table_pattern, change["source_table"])):
            continue
        if change["operation"] in ("insert", "read"):
            rendered.append(flink_row("+I", change["after"]))
        elif change["operation"] == "update":
            rendered += [flink_row("-U", change["before"]), flink_row("+U", change["after"])]
        else:
            rendered.append(flink_row("-D", change["before"]))
    expected = (CANAL_DIR / f"{name}.expected.txt").read_text(encoding="utf-8").splitlines()
    assert rendered == [line for line in expected if line]
    # the CREATE DDL Flink skips is in schema_changes; nothing is quarantined
    ddl = pipeline.sql(f"select operation from {{s}}.schema_changes where origin like '{origin_of(name + '.txt')}'")
    assert ddl and {r["operation"] for r in ddl} == {"create"}
    assert pipeline.sql(f"select * from {{s}}.quarantine where origin like '{origin_of(name + '.txt')}'") == []


def live_rows(state: list[dict], table_ids: set[str]) -> list[dict]:
    """Rows of these tables merged by row key (latest sort_key wins), live ones only."""
    latest: dict[str, dict] = {}
    for row in state:
        if row["table_id"] in table_ids:
            kept = latest.get(row["row_key"])
            if kept is None or row["sort_key"] > kept["sort_key"]:
                latest[row["row_key"]] = row
    return [row for row in latest.values() if not row["is_deleted"]]


@pytest.mark.parametrize("name", PAIMON)
def test_paimon_final_state(conformance, name):
    if name in OUT_OF_SCOPE:
        pytest.skip(OUT_OF_SCOPE[name])
    run = conformance(name)
    steps = parse_paimon(name)
    differences = COLUMN_DIFFERENCES.get(name, {})
    seen_inputs: list[Path] = []
    for index, step in enumerate(steps):
        seen_inputs += step["inputs"]
        snapshot = run["snapshots"][name][index]
        step_origins = {Path(p).name for p in step["inputs"]}
        quarantined = [q for q in snapshot["quarantine"] if Path(q["origin"]).name in step_origins]
        if (name, index) in STEP_DIFFERENCES:
            assert {q["reason_code"] for q in quarantined} == {"missing_table"}
            assert len(quarantined) == sum(len(record_lines(Path(p))) for p in step["inputs"])
            continue
        assert quarantined == [], (name, index)
        tables = input_tables(seen_inputs)
        for expect in step["expects"]:
            if expect["table"] is not None:
                prefix, suffix = TABLE_AFFIXES.get(name, ("", ""))
                source_table = expect["table"].removeprefix(prefix).removesuffix(suffix)
                scope = {t for t in tables if t.split(".")[-1] == source_table}
                assert scope, (name, expect["table"])
            else:
                scope = tables
            columns = expect["columns"]
            compared = [i for i, (column, _) in enumerate(columns) if column not in differences]
            ours = sorted(
                [render(row["row_image"].get(columns[i][0]), columns[i][1]) for i in compared]
                for row in live_rows(snapshot["state"], scope)
            )
            expected = sorted([row[i] for i in compared] for row in expect["rows"])
            assert all(len(row) == len(columns) for row in expect["rows"])
            if name == "paimon-table-nonpk":
                # Deliberate difference: Paimon's append table keeps both identical rows; a keyless
                # table is keyed by a hash of the row, so the identical rows are one current_state row
                # and two changes in change_log.
                assert ours == expected[:1] and expected[0] == expected[1]
                inserts = run["pipeline"].sql(
                    "select after from {s}.change_log where table_id = 'non_pk.t' and operation = 'insert'")
                assert [r["after"] for r in inserts] == [{"v0": "five", "v1": "50"}] * 2
                continue
            assert ours == expected, (name, index, expect["table"])


def test_alltype_column_types_come_from_mysql_type(conformance):
    pipeline = conformance("paimon-table-alltype")["pipeline"]
    types = pipeline.sql(
        "select column_types from {s}.change_log where table_id = 'paimon_sync_table.all_types_table' limit 1")[0]["column_types"]
    assert types["_decimal"] == "decimal(8,0)" and types["_varchar"] == "varchar(20)"
    assert types["_tinyint_unsigned_zerofill"] == "tinyint(2) unsigned zerofill" and types["_json"] == "json"


def test_seatunnel_e2e(conformance):
    name = "seatunnel-e2e-canal_data"
    pipeline = conformance(name)["pipeline"]
    changes = pipeline.sql(
        "select operation, before, after from {s}.change_log where table_id = 'canal_hvygfc.products' order by sort_key")

    def message(image, kind):
        return {"data": {**image, "id": int(image["id"])}, "type": kind}

    job1 = []
    for change in changes:
        if change["operation"] in ("insert", "read"):
            job1.append(message(change["after"], "INSERT"))
        elif change["operation"] == "update":
            job1 += [message(change["before"], "DELETE"), message(change["after"], "INSERT")]
        else:
            job1.append(message(change["before"], "DELETE"))
    lines = (CANAL_DIR / f"{name}.expected.txt").read_text(encoding="utf-8").splitlines()
    job2_at = lines.index(next(line for line in lines if line.startswith("## job 2")))
    assert job1 == [json.loads(line) for line in lines[:job2_at] if line.startswith("{")]
    live = sorted(
        (int(r["row_image"]["id"]), r["row_image"]["name"], r["row_image"]["description"], r["row_image"]["weight"])
        for r in pipeline.sql("select row_image from {s}.current_state where table_id = 'canal_hvygfc.products' and not is_deleted")
    )
    expected = [line.split("\t") for line in lines[job2_at + 1:] if line and not line.startswith("#")]
    assert live == [(int(e[0]), *(json.loads(v) for v in e[1:])) for e in expected]
    # the QUERY (CREATE DATABASE), CREATE and ALTER messages are schema changes
    ddl = pipeline.sql(f"select table_id, operation from {{s}}.schema_changes where origin like '{origin_of(name + '.txt')}' order by sort_key")
    assert [(r["table_id"], r["operation"]) for r in ddl] == [
        ("canal_hvygfc", "query"), ("canal_hvygfc.products", "create"), ("canal_hvygfc.products", "alter")]


def is_data_file(name: str) -> bool:
    """A name of OUT_OF_SCOPE / SMOKE is a data file (`<name>.txt`), not an expected file."""
    return not (CANAL_DIR / f"{name}.expected.txt").exists() and (CANAL_DIR / f"{name}.txt").exists()


def test_every_expected_file_is_covered_or_out_of_scope():
    if not CANAL_DIR.exists():
        pytest.skip("../shared/conformance is not beside the checkout")
    expected = {p.name[: -len(".expected.txt")] for p in CANAL_DIR.glob("*.expected.txt")}
    assert expected == (set(GROUP_OF) | set(OUT_OF_SCOPE)) - {n for n in OUT_OF_SCOPE if is_data_file(n)}
    assert not set(GROUP_OF) & set(OUT_OF_SCOPE) and not set(SMOKE) & set(OUT_OF_SCOPE)


def test_every_data_file_is_covered_or_out_of_scope():
    """Every corpus data file is an input of a compared expected file, a smoke file or out of
    scope (with the reason); only out-of-scope expected files' inputs may go untested."""
    if not CANAL_DIR.exists():
        pytest.skip("../shared/conformance is not beside the checkout")
    data = {p.name for p in CANAL_DIR.glob("*.txt") if not p.name.endswith(".expected.txt")}
    inputs = {Path(p).name for name in GROUP_OF for step in input_plan(name) for p in step}
    out_of_scope_inputs = {Path(p).name for name in OUT_OF_SCOPE if name in PAIMON
                           for step in input_plan(name) for p in step}
    listed = {f"{name}.txt" for name in set(SMOKE) | set(OUT_OF_SCOPE) if is_data_file(name)}
    assert set(SMOKE) <= {n for n in SMOKE if is_data_file(n)}
    assert inputs <= data and listed <= data
    assert data == inputs | out_of_scope_inputs | listed, sorted(data - inputs - out_of_scope_inputs - listed)


@pytest.fixture(scope="module")
def smoke(make_pipeline):
    if not CANAL_DIR.exists():
        pytest.skip("../shared/conformance is not beside the checkout")
    pipeline = make_pipeline("canalsmoke", {"cdc_formats": ["canal"]})
    land_batch(pipeline, [CANAL_DIR / f"{name}.txt" for name in SMOKE])
    pipeline.dbt("run", "--select", *INTERMEDIATE_MODELS)
    return pipeline


@pytest.mark.parametrize("name", sorted(SMOKE))
def test_data_file_smoke(smoke, name):
    expect = SMOKE[name]
    origin = origin_of(name + ".txt")
    quarantined = smoke.sql(f"select reason_code from {{s}}.quarantine where origin like '{origin}'")
    changes = smoke.sql(f"select operation, row_key, row_key_kind, primary_key_columns, column_types, after "
                        f"from {{s}}.change_log where origin like '{origin}'")
    lines = record_lines(CANAL_DIR / f"{name}.txt")
    if "quarantined" in expect:
        assert changes == [] and [q["reason_code"] for q in quarantined] == [expect["quarantined"]] * len(lines)
        return
    assert quarantined == []
    assert sorted((c["operation"], c["row_key"]) for c in changes) == sorted(expect["changes"])
    assert {c["row_key_kind"] for c in changes} == {"primary_key"}
    messages = [json.loads(line) for line in lines]
    assert sorted(json.dumps(c["after"], sort_keys=True) for c in changes) == sorted(
        json.dumps(row, sort_keys=True) for m in messages for row in m["data"])
    if name == "paimon-table-metadatacolumn-canal-data-1":
        assert changes[0]["column_types"] == {"_id": "string", "_date": "string"}
