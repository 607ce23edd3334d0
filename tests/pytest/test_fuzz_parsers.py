"""Fuzzing the format parsers through real dbt builds.

Per format, one batch of two landing files (the two fuzzers share the build):
- a few hundred messages mutated by hypothesis from the format's real messages (truncated,
  wrong types, missing fields, huge values, unicode, deep nesting, wrong Base64, random bytes);
- the short version of `make fuzz` (bench/fuzz.py, SHORT_MESSAGES lines with a fixed seed:
  retyped, far-future times, hostile names as keys and values, ...).
Every format's batch lands in one warehouse and is built by one `dbt build` with every format
enabled (bench/fuzz.py's fuzz_formats): one format's odd messages must not stop another's.
Properties: the build never fails (no model or test errors or failures, no exception), every
landed message is staged, every staged event is accounted for (the dbt tests
assert_every_landed_message_is_staged, assert_every_event_is_accounted_for and
assert_landed_messages_balance run inside the build), the mutations reach the quarantine, and
the quarantine holds exactly the messages that are not JSON (or, for DTS Avro, exactly the
records the decoder rejects), per format. `make fuzz` runs the same mutator with 100,000
messages per format, one build each; its figures are in bench/results/fuzz-<date>.md.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st

from bench.fuzz import fuzz_formats, one_line, paths, remove, replace

from .conftest import FIXTURES_DIR, PROJECT_DIR, fixture_message

pytestmark = pytest.mark.dbt

MESSAGES_PER_EXAMPLE = 200
# lines of bench/fuzz.py's mutator landed beside them (its fixed seed, as `make fuzz` uses)
SHORT_MESSAGES = 300
SHORT_SEED = 20261125

SEEDS = {
    "dataworks": [fixture_message(f"dataworks/{p.stem}.json") for p in sorted((FIXTURES_DIR / "dataworks").glob("*.json"))],
    "datahub_tuple": (FIXTURES_DIR / "datahub_tuple" / "seed000_tuple_example.jsonl").read_text().splitlines(),
    "canal": [fixture_message(f"canal/{p.name}") for p in sorted((FIXTURES_DIR / "canal").glob("*.json"))]
    + (PROJECT_DIR / "samples" / "canal" / "store_products.jsonl").read_text().splitlines(),
    "shareplex": [fixture_message(f"shareplex/{p.name}") for p in sorted((FIXTURES_DIR / "shareplex").glob("*.json"))]
    + (PROJECT_DIR / "samples" / "shareplex" / "hr_employees.jsonl").read_text().splitlines(),
    "debezium": [line for name in ("mysql_orders_schema.jsonl", "postgres_accounts_plain.jsonl", "control_messages.jsonl")
                 for line in (FIXTURES_DIR / "debezium" / name).read_text().splitlines() if line.strip()]
    + [fixture_message(f"lindorm/{p.name}") for p in sorted((FIXTURES_DIR / "lindorm").glob("seed003_*.json"))
       if p.stem != "seed003_format_definition"],
    "datastream": [fixture_message(f"datastream/{p.stem}.json") for p in sorted((FIXTURES_DIR / "datastream").glob("seed004_*.json"))]
    + [line for p in sorted((FIXTURES_DIR / "datastream").glob("*.jsonl")) for line in p.read_text().splitlines()],
}

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False), st.text(max_size=30),
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=!-_", max_size=40),
)


@st.composite
def mutated_message(draw, format_id):
    text = draw(st.sampled_from(SEEDS[format_id]))
    document = json.loads(text)
    kind = draw(st.sampled_from(["truncate", "retype", "drop", "huge", "unicode", "nest", "bytes", "valid"]))
    all_paths = [p for p in paths(document) if p]
    if not all_paths and kind not in ("truncate", "bytes"):
        kind = "valid"  # a tombstone (null) or {} has nothing inside to mutate
    if kind == "truncate":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    if kind == "bytes":
        return draw(st.binary(max_size=200)).decode("utf-8", errors="replace").replace("\n", " ")
    if kind == "valid":
        return text
    path = draw(st.sampled_from(all_paths))
    if kind == "retype":
        document = replace(document, path, draw(json_scalars | st.lists(json_scalars, max_size=3) | st.dictionaries(st.text(max_size=5), json_scalars, max_size=3)))
    elif kind == "drop":
        document = remove(document, path)
    elif kind == "huge":
        document = replace(document, path, "x" * draw(st.integers(10_000, 60_000)))
    elif kind == "unicode":
        document = replace(document, path, draw(st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=50)))
    elif kind == "nest":
        depth = draw(st.integers(10, 3000))
        document = replace(document, path, json.loads("[" * depth + "1" + "]" * depth) if depth < 900 else None)
        if depth >= 900:  # deeper than Python's json allows: build the text directly
            return json.dumps(document).replace("null", "[" * depth + "]" * depth, 1)
    return json.dumps(document, ensure_ascii=draw(st.booleans())).replace("\n", " ")


def drawn(strategy, varied) -> list[str]:
    """One example of ``strategy`` (a list of messages), drawn with the suite's fixed seed: the
    first that ``varied`` accepts (Hypothesis starts from its simplest input, all empty lines)."""
    examples = []

    @seed(20261122)
    @settings(max_examples=1, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example, HealthCheck.filter_too_much])
    @given(strategy)
    def draw(messages):
        assume(varied(messages))
        examples.append(messages)

    draw()
    return [one_line(m) for m in examples[-1] if m.strip()]


@pytest.fixture(scope="module")
def fuzzed(spark_home, tmp_path_factory):
    """Every format's mutated batch landed and built once: (figures, schema, work dir)."""
    extra_lines = {
        format_id: drawn(st.lists(mutated_message(format_id), min_size=MESSAGES_PER_EXAMPLE, max_size=MESSAGES_PER_EXAMPLE),
                         lambda messages: len({m for m in messages if m.strip()}) >= MESSAGES_PER_EXAMPLE // 4)
        for format_id in sorted(SEEDS)
    }
    extra_lines["dts_avro"] = drawn(
        st.lists(mutated_dts_record(), min_size=MESSAGES_PER_EXAMPLE, max_size=MESSAGES_PER_EXAMPLE),
        lambda messages: len(set(messages)) >= MESSAGES_PER_EXAMPLE // 4)
    work_dir = tmp_path_factory.mktemp("fuzz")
    schema = f"fuzz_{work_dir.name.replace('-', '_')}"
    figures = fuzz_formats(extra_lines, SHORT_MESSAGES, SHORT_SEED, work_dir, schema=schema)
    print(f"fuzz: {figures['landed']} mutated messages of {len(extra_lines)} formats in one build, "
          f"{figures['seconds']} s")
    return figures, schema, work_dir


def test_the_build_of_every_format_never_crashes_and_accounts_for_every_message(fuzzed):
    figures, _, _ = fuzzed
    assert figures["landed"] == figures["messages"], figures["errors"]
    assert figures["crashes"] == 0, figures["errors"]
    assert figures["unaccounted"] == 0, figures["errors"]
    assert figures.get("build_success"), figures["errors"]


def staged_messages(spark, schema: str, format_id: str) -> int:
    return spark.sql(f"select count(distinct message_id) as n from {schema}_staging.stg_{format_id}__events").first()["n"]


def assert_row_key_kind_follows_row_key(spark, schema: str, format_id: str) -> None:
    """`row_key_kind` says how `row_key` was made: set exactly where there is a row key (not on
    control events, nor on changes quarantined without one)."""
    kinds = {(r["has_key"], r["has_kind"]) for r in spark.sql(
        f"select row_key is not null as has_key, row_key_kind is not null as has_kind "
        f"from {schema}_staging.stg_{format_id}__events group by 1, 2").collect()}
    assert kinds == {(True, True), (False, False)}, kinds


def landed_lines(work_dir, format_id: str) -> list[str]:
    """Every line the format's batch landed (both files), as landed."""
    return [line for path in sorted((work_dir / "landing" / format_id).rglob("*.*")) if path.is_file()
            for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def quarantined_raw_values(spark, schema: str, format_id: str, reason_code: str) -> list[str]:
    return [r["raw_value"] for r in spark.sql(
        f"select raw_value from {schema}.quarantine "
        f"where source_format = '{format_id}' and reason_code = '{reason_code}'").collect()]


@pytest.mark.parametrize("format_id", sorted(SEEDS))
def test_mutated_messages_never_crash_and_are_all_accounted_for(fuzzed, format_id):
    from pyspark.sql import SparkSession

    figures, schema, work_dir = fuzzed
    spark = SparkSession.builder.getOrCreate()
    lines = landed_lines(work_dir, format_id)
    assert figures["landed_by_format"][format_id] == len(lines)
    assert staged_messages(spark, schema, format_id) == len(lines)
    assert figures["quarantined_by_format"][format_id] > 0  # the mutations do reach the quarantine
    assert_row_key_kind_follows_row_key(spark, schema, format_id)
    verdicts = [_is_json_object(m) for m in lines]
    not_json, undecided = verdicts.count(False), verdicts.count(None)
    quarantined = quarantined_raw_values(spark, schema, format_id, "not_json")
    surprising = [m[:200] + " … " + m[-100:] for m in quarantined if _is_json_object(m)]
    assert not_json <= len(quarantined) <= not_json + undecided, surprising[:3]


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _nesting_depth(text: str) -> int:
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _is_json_object(text: str) -> bool | None:
    """True/False for strict JSON (no NaN/Infinity); None when it cannot tell: nested deeper
    than Spark's JSON reader goes (those are quarantined as not_json, docs/quarantine.md)."""
    if _nesting_depth(text) > 500:
        return None
    try:
        return isinstance(json.loads(text, parse_constant=_reject_constant), dict)
    except RecursionError:
        return None
    except ValueError:
        return False


# --- binary format: DTS Avro records (landed as Base64 text) ------------------------------------

def _dts_avro_seeds() -> list[bytes]:
    from python_udfs.decoders.dts_avro import encode_readable

    from .dts_avro_samples import MYSQL_SHOP_ORDERS, ORACLE_HR_EMPLOYEES

    return [encode_readable(r) for r in MYSQL_SHOP_ORDERS + ORACLE_HR_EMPLOYEES]


DTS_AVRO_SEEDS = _dts_avro_seeds()


@st.composite
def mutated_dts_record(draw):
    """Base64 text of a DTS record cut short, with bytes flipped, inserted or removed, random
    bytes, text that is not Base64, or the record unchanged."""
    import base64

    data = bytearray(draw(st.sampled_from(DTS_AVRO_SEEDS)))
    kind = draw(st.sampled_from(["truncate", "flip", "insert", "delete", "bytes", "not_base64", "valid"]))
    if kind == "truncate":
        data = data[: draw(st.integers(0, len(data) - 1))]
    elif kind == "flip":
        for _ in range(draw(st.integers(1, 4))):
            data[draw(st.integers(0, len(data) - 1))] ^= draw(st.integers(1, 255))
    elif kind == "insert":
        at = draw(st.integers(0, len(data)))
        data[at:at] = draw(st.binary(min_size=1, max_size=8))
    elif kind == "delete":
        at = draw(st.integers(0, len(data) - 1))
        del data[at : at + draw(st.integers(1, 8))]
    elif kind == "bytes":
        data = bytearray(draw(st.binary(min_size=1, max_size=300)))
    elif kind == "not_base64":
        text = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\r\n"), min_size=1, max_size=60)
        return draw(text.filter(lambda t: t.strip()))
    return base64.b64encode(bytes(data)).decode("ascii") or "=" * 4


def test_mutated_dts_avro_records_never_crash_and_are_all_accounted_for(fuzzed):
    from pyspark.sql import SparkSession

    from python_udfs.decoders.dts_avro import decode_dts_base64

    figures, schema, work_dir = fuzzed
    spark = SparkSession.builder.getOrCreate()
    lines = landed_lines(work_dir, "dts_avro")
    assert figures["landed_by_format"]["dts_avro"] == len(lines)
    assert staged_messages(spark, schema, "dts_avro") == len(lines)
    assert_row_key_kind_follows_row_key(spark, schema, "dts_avro")
    # exactly the records the decoder rejects are quarantined as not_dts_avro
    rejected = sorted(m for m in lines if decode_dts_base64(m)[1] is not None)
    assert sorted(quarantined_raw_values(spark, schema, "dts_avro", "not_dts_avro")) == rejected
    assert 0 < len(rejected) < len(lines)
