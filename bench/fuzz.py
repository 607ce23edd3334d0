"""Mutation fuzzer over every format's real message shapes (``make fuzz``).

    make fuzz                                            # 100,000 messages per format, all formats
    .venv/bin/python -m bench.fuzz --messages 2000 --formats canal,debezium

Per format: the real messages of tests/fixtures and samples/ (the seeds of
tests/pytest/test_fuzz_parsers.py) are mutated with a fixed seed into one landing file of
``--messages`` lines, landed with the project's own landing (``land_files``), and built with
one ``dbt build`` (every model and data test of that format; in-process, one JVM for the run).

Mutations: valid copies; cut short; a value retyped, dropped, made huge, made Unicode, nested
deep; random bytes; far-future, negative and out-of-range timestamps; and names: a key (a
column name) or a name-like value (database, schema, table, stream) replaced by a hostile
identifier: Jinja (``{{ env_var('HOME') }}``, ``{% endraw %}``), Spark variables
(``${env:HOME}``), SQL (quotes, backticks, comments, ``;``), control characters (BEL, NUL,
newline), project model names (``change_log``), reserved words, very long names, mixed case,
Unicode, names that differ only in punctuation (``order-items`` / ``order_items``). DTS Avro
records are mutated both as readable records (names, timestamps) and as bytes.

Printed per format: messages, crashes (build errors: a model or test that errored, an
exception in landing or dbt), unaccounted messages (rows of the accounting tests
assert_every_landed_message_is_staged, assert_every_event_is_accounted_for and
assert_landed_messages_balance, i.e. landed lines that reached neither change_log,
schema_changes, the update-half tables, the control counts nor quarantine), other failed data
tests, and time. With ``--out`` (default bench/results/fuzz-<date>.md) the table is written
with the date, machine load and arguments. Exit status 1 when any crash or unaccounted
message was seen.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import json
import os
import random
import shutil
import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
FIXTURES_DIR = PROJECT_DIR / "tests" / "fixtures"
ACCOUNTING_TESTS = (
    "assert_every_landed_message_is_staged",
    "assert_every_event_is_accounted_for",
    "assert_landed_messages_balance",
)
ALL_FORMATS = ["canal", "datahub_tuple", "dataworks", "datastream", "debezium", "dts_avro", "shareplex"]

# Hostile identifiers: every kind the typed-model probe found, and more.
HOSTILE_NAMES = [
    "{{ env_var('HOME') }}",
    "{{ modules.datetime.date(1,1,1) }}",
    "{% raw %}",
    "{% endraw %}x{{ 1 }}",
    "{# comment",
    "{{",
    "${env:HOME}",
    "${spark.app.name}",
    "bell\x07table",
    "nul\x00name",
    "new\nline",
    "tab\tand\rcr",
    "change_log",
    "current_state",
    "row_history",
    "quarantine",
    "order-items",
    "order_items",
    "Order_Items",
    "ORDER ITEMS",
    "select",
    "from",
    "table",
    "order",
    "group",
    "null",
    "true",
    "_row_key",
    "a.b.c",
    "..",
    "",
    " ",
    "x" * 300,
    "y" * 5000,
    "Ünïcödé_Tåble",
    "表名",
    "🙂emoji",
    "\u202eevil",
    "line\u2028sep",
    "a`b",
    "a'b",
    'a"b',
    "a\\b",
    "back\\",
    "x`) as y, (select 1",
    "'; drop table change_log; --",
    "*/ select 1 /*",
    "-- comment",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "a,b:c;d",
    "%s%n",
    "MiXeD_CaSe",
]
FAR_TIMESTAMPS = [
    253_402_300_800_000,  # 10000-01-01 in milliseconds
    253_402_300_800,  # the same in seconds
    10**15,
    10**17,
    2**62,
    -62_135_596_800_001,  # before 0001-01-01 in milliseconds
    -1,
    "10000-01-01 00:00:00",
    "9999-12-31T23:59:59.999999Z",
    "+275760-09-13T00:00:00Z",
    "0000-01-01 00:00:00",
]
NAME_KEYS = ("database", "table", "schema", "db", "name", "owner", "object", "source", "stream", "topic",
             "collection", "tablename", "table_name", "dbname", "objectname", "sourcetable")
KINDS = ["valid", "truncate", "retype", "drop", "huge", "unicode", "nest", "bytes",
         "name_key", "name_key", "name_value", "name_value", "timestamp"]


def fixture_message(relative: str) -> str:
    return json.dumps(json.loads((FIXTURES_DIR / relative).read_text(encoding="utf-8")), ensure_ascii=False)


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def seeds() -> dict[str, list[str]]:
    """Real messages per JSON format (the same files as tests/pytest/test_fuzz_parsers.py)."""
    return {
        "dataworks": [fixture_message(f"dataworks/{p.name}") for p in sorted((FIXTURES_DIR / "dataworks").glob("*.json"))],
        "datahub_tuple": _lines(FIXTURES_DIR / "datahub_tuple" / "seed000_tuple_example.jsonl"),
        "canal": [fixture_message(f"canal/{p.name}") for p in sorted((FIXTURES_DIR / "canal").glob("*.json"))]
        + _lines(PROJECT_DIR / "samples" / "canal" / "store_products.jsonl"),
        "shareplex": [fixture_message(f"shareplex/{p.name}") for p in sorted((FIXTURES_DIR / "shareplex").glob("*.json"))]
        + _lines(PROJECT_DIR / "samples" / "shareplex" / "hr_employees.jsonl"),
        "debezium": [line for name in ("mysql_orders_schema.jsonl", "postgres_accounts_plain.jsonl", "control_messages.jsonl")
                     for line in _lines(FIXTURES_DIR / "debezium" / name)]
        + [fixture_message(f"lindorm/{p.name}") for p in sorted((FIXTURES_DIR / "lindorm").glob("seed003_*.json"))
           if p.stem != "seed003_format_definition"],
        "datastream": [fixture_message(f"datastream/{p.name}") for p in sorted((FIXTURES_DIR / "datastream").glob("seed004_*.json"))]
        + [line for p in sorted((FIXTURES_DIR / "datastream").glob("*.jsonl")) for line in _lines(p)],
    }


def paths(value, prefix=()):
    """Every path into a JSON value."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, prefix + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths(child, prefix + (index,))


def get(value, path):
    for step in path:
        value = value[step]
    return value


def replace(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = replace(value[head], rest, new)
    return copy


def remove(value, path):
    parent = get(value, path[:-1])
    if isinstance(parent, dict):
        smaller = {k: v for k, v in parent.items() if k != path[-1]}
    else:
        smaller = [v for i, v in enumerate(parent) if i != path[-1]]
    return replace(value, path[:-1], smaller)


def rename_key(value, path, new_key, rng: random.Random):
    """The dict at ``path`` with one of its keys renamed (its value kept)."""
    parent = get(value, path)
    if not isinstance(parent, dict) or not parent:
        return value
    old = rng.choice(sorted(parent))
    renamed = {(new_key if k == old else k): v for k, v in parent.items()}
    return replace(value, path, renamed)


def hostile_name(rng: random.Random) -> str:
    name = rng.choice(HOSTILE_NAMES)
    roll = rng.random()
    if roll < 0.15:
        name = name.upper() if rng.random() < 0.5 else name.swapcase()
    elif roll < 0.25:
        name = name + "_" + rng.choice(HOSTILE_NAMES)[:20]
    return name


def random_scalar(rng: random.Random):
    return rng.choice([
        None, True, False, rng.randint(-(2**70), 2**70), rng.uniform(-1e308, 1e308), "",
        "".join(rng.choice("abcXYZ019+/=!-_ ") for _ in range(rng.randint(0, 40))),
        [], {}, [1, "a", None], {"k": rng.randint(0, 9)},
    ])


def unicode_text(rng: random.Random) -> str:
    chars = []
    for _ in range(rng.randint(1, 40)):
        code = rng.choice([rng.randint(0x20, 0x7E), rng.randint(0x80, 0x7FF), rng.randint(0x800, 0xD7FF),
                           rng.randint(0xE000, 0xFFFD), rng.randint(0x10000, 0x10FFFF), rng.randint(0, 0x1F)])
        chars.append(chr(code))
    return "".join(chars)


class JsonMutator:
    """Mutated lines of one JSON format's seed messages (deterministic per ``seed``)."""

    def __init__(self, seed_messages: list[str], seed: int) -> None:
        self.rng = random.Random(seed)
        self.seeds = []
        for text in seed_messages:
            document = json.loads(text)
            all_paths = [p for p in paths(document) if p]
            dict_paths = [p for p in paths(document) if isinstance(get(document, p), dict) and get(document, p)]
            name_paths = [p for p in all_paths if isinstance(p[-1], str) and isinstance(get(document, p), str)
                          and any(k in p[-1].lower().replace("_", "") for k in NAME_KEYS)]
            number_paths = [p for p in all_paths if isinstance(get(document, p), (int, float))
                            and not isinstance(get(document, p), bool)]
            self.seeds.append((text, document, all_paths, dict_paths, name_paths, number_paths))

    def message(self) -> str:
        rng = self.rng
        text, document, all_paths, dict_paths, name_paths, number_paths = rng.choice(self.seeds)
        kind = rng.choice(KINDS)
        if not all_paths and kind not in ("truncate", "bytes"):
            kind = "valid"
        if kind == "valid":
            return text
        if kind == "truncate":
            return text[: rng.randint(0, max(0, len(text) - 1))]
        if kind == "bytes":
            return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 200))).decode("utf-8", errors="replace")
        if kind == "name_key" and dict_paths:
            if rng.random() < 0.5 and name_paths:  # and a hostile table/database name too
                document = replace(document, rng.choice(name_paths), hostile_name(rng))
            document = rename_key(document, rng.choice(dict_paths), hostile_name(rng), rng)
        elif kind == "name_value":
            document = replace(document, rng.choice(name_paths or all_paths), hostile_name(rng))
        elif kind == "timestamp":
            document = replace(document, rng.choice(number_paths or all_paths), rng.choice(FAR_TIMESTAMPS))
        elif kind == "retype":
            document = replace(document, rng.choice(all_paths), random_scalar(rng))
        elif kind == "drop":
            document = remove(document, rng.choice(all_paths))
        elif kind == "huge":
            document = replace(document, rng.choice(all_paths), "x" * rng.randint(1_000, 20_000))
        elif kind == "unicode":
            document = replace(document, rng.choice(all_paths), unicode_text(rng))
        elif kind == "nest":
            depth = rng.choice([rng.randint(10, 200), rng.randint(900, 3000)])
            if depth < 900:
                document = replace(document, rng.choice(all_paths), json.loads("[" * depth + "1" + "]" * depth))
            else:  # deeper than Python's json allows: build the text directly
                document = replace(document, rng.choice(all_paths), None)
                return json.dumps(document).replace("null", "[" * depth + "]" * depth, 1)
        return json.dumps(document, ensure_ascii=rng.random() < 0.5)


def _dts_readable_seeds() -> list[dict]:
    sys.path.insert(0, str(PROJECT_DIR))
    from tests.pytest.dts_avro_samples import MYSQL_SHOP_ORDERS, ORACLE_HR_EMPLOYEES

    return MYSQL_SHOP_ORDERS + ORACLE_HR_EMPLOYEES


class DtsAvroMutator:
    """Base64 DTS Avro records: readable records with hostile names or timestamps, encoded;
    or encoded records cut short, with bytes flipped, inserted, removed; or not Base64."""

    def __init__(self, seed: int) -> None:
        from python_udfs.decoders.dts_avro import encode_readable

        self.encode = encode_readable
        self.rng = random.Random(seed)
        self.records = _dts_readable_seeds()
        self.encoded = [encode_readable(r) for r in self.records]

    def _renamed(self, record: dict) -> dict:
        rng = self.rng
        record = json.loads(json.dumps(record))
        where = rng.choice(["objectName", "field", "both", "timestamp"])
        if where in ("objectName", "both"):
            database = rng.choice([hostile_name(rng), "shop"])
            record["objectName"] = f"{database}.{hostile_name(rng)}" if rng.random() < 0.8 else hostile_name(rng)
        if where in ("field", "both") and record.get("fields"):
            fields = record["fields"]
            fields[rng.randrange(len(fields))][0] = hostile_name(rng)
        if where == "timestamp":
            record["sourceTimestamp"] = rng.choice([253_402_300_800, 10**12, 2**40, -62_135_596_801, 0])
        return record

    def message(self) -> str:
        rng = self.rng
        kind = rng.choice(["valid", "name", "name", "name", "truncate", "flip", "insert", "delete", "bytes", "not_base64"])
        if kind == "name":
            try:
                data = bytearray(self.encode(self._renamed(rng.choice(self.records))))
            except Exception:  # a name the writer cannot encode: fall back to a valid record
                data = bytearray(rng.choice(self.encoded))
        else:
            data = bytearray(rng.choice(self.encoded))
        if kind == "truncate":
            data = data[: rng.randint(0, len(data) - 1)]
        elif kind == "flip":
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] ^= rng.randint(1, 255)
        elif kind == "insert":
            at = rng.randint(0, len(data))
            data[at:at] = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 8)))
        elif kind == "delete":
            at = rng.randrange(len(data))
            del data[at : at + rng.randint(1, 8)]
        elif kind == "bytes":
            data = bytearray(rng.getrandbits(8) for _ in range(rng.randint(1, 300)))
        elif kind == "not_base64":
            text = one_line(unicode_text(rng))
            return text if text.strip() else "not base64"
        return base64.b64encode(bytes(data)).decode("ascii") or "===="


def one_line(message: str) -> str:
    """A message as one landing line: line breaks (which would split it) become spaces."""
    return message.replace("\r", " ").replace("\n", " ")


def mutated_lines(format_id: str, count: int, seed: int) -> list[str]:
    """``count`` non-blank landing lines of mutated messages of ``format_id``."""
    mutator = DtsAvroMutator(seed) if format_id == "dts_avro" else JsonMutator(seeds()[format_id], seed)
    lines = []
    while len(lines) < count:
        line = one_line(mutator.message())
        if line.strip():
            lines.append(line)
    return lines


def run_dbt(args: list[str], schema: str, formats: list[str], work_dir: Path):
    from dbt.cli.main import dbtRunner

    os.environ["CDC_SCHEMA"] = schema
    return dbtRunner().invoke([
        *args,
        "--project-dir", str(PROJECT_DIR),
        "--profiles-dir", str(PROJECT_DIR / "profiles"),
        "--target-path", str(work_dir / "target"),
        "--log-path", str(work_dir / "logs"),
        "--vars", json.dumps({"cdc_formats": formats, "cdc_landing_schema": f"{schema}_landing"}),
        "--quiet",
    ])


def fuzz_format(format_id: str, count: int, seed: int, work_dir: Path, *,
                extra_lines: list[str] | None = None, schema: str | None = None) -> dict:
    """Mutate, land and build one format; the figures of the run (fuzz_formats, one format).

    extra_lines: more landing lines (one message each, no line breaks) landed in the same batch
    from a second file. schema: the pipeline's schema (default ``fuzz_<format>``).
    """
    figures = fuzz_formats({format_id: extra_lines or []}, count, seed, work_dir,
                           schema=schema or f"fuzz_{format_id}")
    figures["format"] = format_id
    return figures


def fuzz_formats(extra_lines: dict[str, list[str]], count: int, seed: int, work_dir: Path, *,
                 schema: str) -> dict:
    """Mutate ``count`` lines of each format named in ``extra_lines``, land them beside that
    format's extra lines (a second file; the test suite adds its hypothesis-generated messages
    there) and build every format in one ``dbt build``: one format's odd messages must not stop
    another's. The figures of the run, totals and ``landed``/``quarantined`` per format
    (``*_by_format``); crashes, unaccounted messages and failed tests are the build's.
    """
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.landing import land_files

    started = time.monotonic()
    formats = list(extra_lines)
    figures = {"formats": formats, "messages": 0, "landed": 0, "crashes": 0, "unaccounted": 0,
               "failed_tests": 0, "quarantined": 0, "errors": [], "landed_by_format": {},
               "quarantined_by_format": {}}
    files_by_format = {}
    for format_id in formats:
        suffix = "b64" if format_id == "dts_avro" else "jsonl"
        files = {f"fuzz-{seed}.{suffix}": mutated_lines(format_id, count, seed)}
        if extra_lines[format_id]:
            files[f"extra.{suffix}"] = extra_lines[format_id]
        files_by_format[format_id] = []
        for name, lines in files.items():
            path = work_dir / "landing" / format_id / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            files_by_format[format_id].append(path)
        figures["messages"] += count + len(extra_lines[format_id])
    figures["generate_seconds"] = round(time.monotonic() - started, 1)
    try:
        result = run_dbt(["run-operation", "create_landing_tables"], schema, formats, work_dir)
        if not result.success:
            raise RuntimeError(f"create_landing_tables: {result.exception}")
        for format_id, paths in files_by_format.items():
            landed = land_files(SparkSession.builder.getOrCreate(), format_id, paths, project_dir=PROJECT_DIR,
                                landing_schema=f"{schema}_landing", scratch_dir=work_dir / "scratch", progress=False)
            figures["landed_by_format"][format_id] = landed.messages_landed
            figures["landed"] += landed.messages_landed
        if figures["landed"] != figures["messages"]:
            figures["errors"].append(f"landed {figures['landed']} of {figures['messages']} lines")
            figures["unaccounted"] += abs(figures["messages"] - figures["landed"])
        result = run_dbt(["build"], schema, formats, work_dir)
        figures["build_success"] = bool(result.success)
        if result.exception is not None:
            figures["crashes"] += 1
            figures["errors"].append(f"dbt build: {result.exception}")
        accounted_runs = set()
        for node_result in getattr(result.result, "results", None) or []:
            status, name = str(node_result.status), node_result.node.name
            if name in ACCOUNTING_TESTS:
                if status in ("pass", "fail", "warn"):
                    accounted_runs.add(name)
                    figures["unaccounted"] += int(node_result.failures or 0)
            if status in ("error", "runtime error"):
                figures["crashes"] += 1
                figures["errors"].append(f"{name}: {(node_result.message or '')[:500]}")
            elif status in ("fail", "warn") and name not in ACCOUNTING_TESTS:
                figures["failed_tests"] += 1
                figures["errors"].append(f"{name}: {status} ({node_result.failures} rows)")
        if accounted_runs != set(ACCOUNTING_TESTS):  # accounting could not run: nothing is known
            figures["unaccounted"] = max(figures["unaccounted"], figures["landed"])
            figures["errors"].append(f"accounting tests not run: {sorted(set(ACCOUNTING_TESTS) - accounted_runs)}")
        spark = SparkSession.builder.getOrCreate()
        figures["quarantined_by_format"] = {format_id: 0 for format_id in formats} | {
            row["source_format"]: row["n"] for row in spark.sql(
                f"select source_format, count(distinct message_id) as n from {schema}.quarantine "
                "group by source_format").collect()}
        figures["quarantined"] = sum(figures["quarantined_by_format"].values())
    except Exception as error:  # noqa: BLE001 - every exception is a crash to report
        figures["crashes"] += 1
        figures["errors"].append(f"{type(error).__name__}: {str(error)[:500]}")
    figures["seconds"] = round(time.monotonic() - started, 1)
    return figures


def table(results: list[dict]) -> str:
    lines = ["| format | messages | crashes | unaccounted | failed data tests | quarantined messages | seconds |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        lines.append(f"| {r['format']} | {r['messages']:,} | {r['crashes']} | {r['unaccounted']} | "
                     f"{r['failed_tests']} | {r['quarantined']:,} | {r['seconds']:,.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=100_000, help="mutated messages per format (default 100,000)")
    parser.add_argument("--formats", default=",".join(ALL_FORMATS), help="comma-separated format ids (default all)")
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--work-dir", type=Path, default=PROJECT_DIR / "bench" / "work" / "fuzz")
    parser.add_argument("--out", type=Path, default=None,
                        help="markdown results file (default bench/results/fuzz-<date>.md; '-' for none)")
    args = parser.parse_args(argv)
    formats = [f for f in args.formats.split(",") if f]
    unknown = set(formats) - set(ALL_FORMATS)
    if unknown:
        parser.error(f"unknown formats: {', '.join(sorted(unknown))}")

    shutil.rmtree(args.work_dir, ignore_errors=True)
    args.work_dir.mkdir(parents=True)
    os.environ["CDC_LOCAL_DIR"] = str(args.work_dir / "cdc_local")
    os.environ.setdefault("DBT_PROFILES_DIR", str(PROJECT_DIR / "profiles"))
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("CDC_LOG4J_CONFIG", str(PROJECT_DIR / "profiles" / "log4j2.properties"))
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    started_at = dt.datetime.now(dt.timezone.utc)
    load_before = [round(x, 2) for x in os.getloadavg()]
    results = []
    print(f"{'format':<14} {'messages':>9} {'crashes':>8} {'unaccounted':>12} {'failed tests':>13} {'seconds':>8}", flush=True)
    for format_id in formats:
        figures = fuzz_format(format_id, args.messages, args.seed, args.work_dir)
        results.append(figures)
        print(f"{format_id:<14} {figures['messages']:>9,} {figures['crashes']:>8} {figures['unaccounted']:>12} "
              f"{figures['failed_tests']:>13} {figures['seconds']:>8.0f}", flush=True)
        for error in figures["errors"][:10]:
            print(f"    {error}", flush=True)
    load_after = [round(x, 2) for x in os.getloadavg()]
    print(f"load average before {load_before}, after {load_after}")
    (args.work_dir / "results.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    if str(args.out) != "-":
        out = args.out or PROJECT_DIR / "bench" / "results" / f"fuzz-{started_at:%Y-%m-%d}.md"
        out.write_text(
            f"# Fuzz run of {started_at:%Y-%m-%d %H:%M} UTC\n\n"
            f"`python -m bench.fuzz --messages {args.messages} --formats {','.join(formats)} --seed {args.seed}` "
            f"on {os.cpu_count()} cores; load average (1, 5, 15 min) before {load_before}, after {load_after}.\n\n"
            + table(results) + "\n\n"
            + "".join(f"- {r['format']}: {e}\n" for r in results for e in r["errors"])
            + "\nCrashes: build errors (a model or test that errored) or exceptions; unaccounted: rows of the "
            "accounting tests (landed lines that reached no staging event, staging events that reached no "
            "table); failed data tests: other tests that failed or warned.\n",
            encoding="utf-8",
        )
        print(f"wrote {out}")
    return 0 if all(r["crashes"] == 0 and r["unaccounted"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
