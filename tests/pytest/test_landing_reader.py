"""Landing through Spark's reader: what lands is what the pure reference reader finds.

`read_messages` (pure Python) defines the messages of a text file: non-blank lines, 1-based
line numbers, a trailing CR dropped, invalid UTF-8 replaced. `land_files` reads text files with
Spark instead (but a small batch of local plain files, which it reads with `read_messages`);
these tests land awkward files (compressed, split into many parts, odd names, globs,
directories, `file://` URIs, small batches both ways) into a real landing table and compare
row for row.
"""

from __future__ import annotations

import bz2
import datetime as dt
import gzip
from pathlib import Path

import pytest

from python_udfs.pipeline.landing import (
    _text_lines,
    is_message_file,
    land_files,
    land_formats,
    lineage_seen,
    next_landing_time,
    origin_name,
    read_messages,
    spark_file_key,
)

from .conftest import PROJECT_DIR

pytestmark = pytest.mark.dbt

AWKWARD = (
    b'{"a":1}\r\n\n  \n{"b":2}\n\xff\xfe broken\n\t\n'
    b'{"c":"\xe2\x82"}\r\r\n\rx\n{"d":"\xe4\xb8\xad\xe6\x96\x87"}\n\x00nul\n'
    # invalid UTF-8 of every kind (truncated, overlong, surrogate, beyond U+10FFFF, stray
    # continuation bytes): replaced exactly as Python's errors="replace" does
    b'\xf0\x9f\x98x\n\xc0\xafx\n\xed\xa0\x80x\n\xf4\x90\x80\x80x\n\xe0\x80\xafx\na\x80\x80b\n\xc2\n'
    # blank is ASCII whitespace alone (form feed, vertical tab too; `f` is no whitespace), and
    # a line break of Unicode (U+2028, U+0085) is text, also last on a line after a CR
    b'\x0c\x0b \nff\n\xe2\x80\xa8\n\xc2\x85\n{"e":1}\r\xe2\x80\xa8\n'
    b'{"last":"no newline"}'
)


def many_lines(count: int, width: int = 40) -> bytes:
    return b"".join(b'{"n":%d,"pad":"%s"}\n' % (i, b"x" * (i % width)) + (b"\n" if i % 7 == 0 else b"") for i in range(count))


@pytest.fixture(scope="module")
def landing(make_pipeline):
    pipeline = make_pipeline("landread", {"cdc_formats": ["canal"]})
    pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
    return pipeline


def landed_rows(pipeline, batch: str | None = None) -> dict[tuple[str, int], str]:
    where = f"where landing_batch_id = '{batch}'" if batch else ""
    rows = pipeline.sql(f"select origin, origin_offset, raw_value from {{s}}_landing.raw_canal {where}")
    found = {(r["origin"], r["origin_offset"]): r["raw_value"] for r in rows}
    assert len(found) == len(rows), "a (file, line) landed twice"
    return found


def expected_rows(files: dict[Path, bytes]) -> dict[tuple[str, int], str]:
    return {
        (origin_name(path, PROJECT_DIR), m.line_number): m.text
        for path, data in files.items()
        for m in read_messages(data)
    }


def land(pipeline, paths, project_dir=PROJECT_DIR, progress=False):
    from pyspark.sql import SparkSession

    return land_files(
        SparkSession.builder.getOrCreate(), "canal", paths, project_dir=project_dir,
        landing_schema=f"{pipeline.schema}_landing", scratch_dir=pipeline.work_dir / "scratch",
        progress=progress,
    )


def test_text_compressed_and_odd_names_land_as_the_reference_reader_reads_them(landing):
    folder = landing.work_dir / "odd"
    folder.mkdir()
    files = {
        folder / "plain.jsonl": AWKWARD,
        folder / "with space #1 %20 ü.jsonl": AWKWARD + b"\n{}",
        folder / "glob[1]{x}.jsonl": b"{}\n\n{}\n",
    }
    for path, data in files.items():
        path.write_bytes(data)
    gz_data, bz_data = many_lines(500), many_lines(700)
    (folder / "g.jsonl.gz").write_bytes(gzip.compress(gz_data))
    (folder / "b.ndjson.bz2").write_bytes(bz2.compress(bz_data))
    files[folder / "g.jsonl.gz"] = gz_data
    files[folder / "b.ndjson.bz2"] = bz_data

    result = land(landing, [folder])
    expected = expected_rows(files)
    assert landed_rows(landing, result.batch_id) == expected
    assert (result.files, result.messages_read, result.messages_landed) == (5, len(expected), len(expected))
    # landing the same files again adds nothing, also named differently (a glob, a URI)
    again = land(landing, [str(folder / "*.jsonl"), folder.as_uri() + "/g.jsonl.gz"])
    assert (again.messages_read, again.messages_landed) == (
        sum(1 for key in expected if not key[0].endswith(".bz2")), 0,
    )


@pytest.mark.parametrize("reader", ["python", "spark"])
def test_a_small_batch_lands_the_same_rows_read_either_way(landing, monkeypatch, capsys, reader):
    """A small batch of local plain files is read in Python (the reference reader) and handed
    to Spark as one Parquet file; otherwise (PYTHON_READ_BYTES 0 here) Spark's text reader
    numbers the lines. Both land exactly what the reference reader finds, say so in one line,
    and the same files again add nothing."""
    from python_udfs.pipeline import landing as landing_module

    calls = []
    monkeypatch.setattr(landing_module, "_text_lines",
                        lambda *args: calls.append(args) or _text_lines(*args))
    if reader == "spark":
        monkeypatch.setattr(landing_module, "PYTHON_READ_BYTES", 0)
    folder = landing.work_dir / f"small-{reader}"
    folder.mkdir()
    files = {folder / "plain.jsonl": AWKWARD, folder / "odd name ü #1.ndjson": AWKWARD + b"\n{}\n\n",
             folder / "many.jsonl": many_lines(300)}
    for path, data in files.items():
        path.write_bytes(data)
    result = land(landing, [folder], progress=True)
    assert len(calls) == (1 if reader == "spark" else 0)
    expected = expected_rows(files)
    said = [line for line in capsys.readouterr().out.splitlines() if "read " in line]
    assert len(said) == 1 and said[0].endswith(f"read 3 text files: {len(expected)} messages"), said
    assert landed_rows(landing, result.batch_id) == expected
    assert (result.files, result.messages_read, result.messages_landed) == (3, len(expected), len(expected))
    again = land(landing, [folder])
    assert (again.messages_read, again.messages_landed) == (len(expected), 0)


def test_a_file_split_into_many_parts_keeps_its_line_numbers(landing):
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    path = landing.work_dir / "split" / "big.jsonl"
    path.parent.mkdir()
    data = many_lines(3000)
    path.write_bytes(data)
    bz_path = path.with_name("big.jsonl.bz2")
    bz_path.write_bytes(bz2.compress(data))
    previous = spark.conf.get("spark.sql.files.maxPartitionBytes")
    spark.conf.set("spark.sql.files.maxPartitionBytes", "4096")  # dozens of splits per file
    try:
        result = land(landing, [path, bz_path])
    finally:
        spark.conf.set("spark.sql.files.maxPartitionBytes", previous)
    assert landed_rows(landing, result.batch_id) == expected_rows({path: data, bz_path: data})


def test_a_grown_file_lands_only_its_new_lines(landing):
    path = landing.work_dir / "grow" / "growing.jsonl"
    path.parent.mkdir()
    path.write_bytes(b'{"n":1}\n{"n":2}\n')
    first = land(landing, [path])
    path.write_bytes(b'{"n":1}\n{"n":2}\n\n{"n":3}\n')
    second = land(landing, [path])
    assert (first.messages_landed, second.messages_read, second.messages_landed) == (2, 3, 1)
    assert landed_rows(landing, second.batch_id) == {(origin_name(path, PROJECT_DIR), 4): '{"n":3}'}
    assert second.landed_at > first.landed_at


def test_uri_directories_are_listed_recursively_without_hidden_files(landing):
    root = landing.work_dir / "uri"
    (root / "day=1").mkdir(parents=True)
    (root / "_temporary").mkdir()
    (root / "day=1" / "a.jsonl").write_bytes(b"{}\n{}\n")
    (root / "day=1" / ".a.jsonl.crc").write_bytes(b"x")
    (root / "_temporary" / "partial.jsonl").write_bytes(b"{}\n")
    (root / "notes.md").write_bytes(b"not messages")
    result = land(landing, [root.as_uri()])
    origin = origin_name(root / "day=1" / "a.jsonl", PROJECT_DIR)  # a local file: as by path
    assert sorted(landed_rows(landing, result.batch_id)) == [(origin, 1), (origin, 2)]
    with pytest.raises(FileNotFoundError):
        land(landing, [(root / "missing").as_uri()])


def test_files_inside_the_project_keep_relative_origins(landing):
    project = landing.work_dir / "project"
    path = project / "landing" / "canal" / "odd name ü.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"{}\n\n{}\n")
    first = land(landing, [path], project_dir=project)
    assert sorted(landed_rows(landing, first.batch_id)) == [
        ("landing/canal/odd name ü.jsonl", 1), ("landing/canal/odd name ü.jsonl", 3),
    ]
    # the same file through its folder, a glob and a file:// URI: already landed
    again = land(landing, [project / "landing", str(project / "landing" / "*" / "*.jsonl"), f"file://{path}"],
                 project_dir=project)
    assert (again.files, again.messages_read, again.messages_landed) == (1, 2, 0)


def test_formats_land_side_by_side_each_into_its_own_table(landing):
    """land_formats lands several formats at once (as the watch and `cdc-pipeline land` do):
    each table gets exactly its own files' lines with their lineage, landing them again adds
    nothing, and a format that fails stops none of the others (its error is raised after)."""
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    schema = f"{landing.schema}_landing"
    for format_id in ("debezium", "shareplex"):
        spark.sql(f"create table if not exists {schema}.raw_{format_id} like {schema}.raw_canal")
    folder = landing.work_dir / "side_by_side"
    files: dict[str, dict[Path, bytes]] = {}
    for index, format_id in enumerate(("canal", "debezium", "shareplex")):
        data = {folder / format_id / f"part-{n}.jsonl": many_lines(200 + 150 * index + n) for n in range(2)}
        for path, text in data.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text)
        files[format_id] = data
    settings = dict(project_dir=PROJECT_DIR, landing_schema=schema, scratch_dir=landing.work_dir / "scratch",
                    progress=False)

    def landed(format_id: str) -> dict[tuple[str, int], str]:
        rows = spark.sql(
            f"select origin, origin_offset, raw_value from {schema}.raw_{format_id}"
            f" where origin like '%side_by_side%'"
        ).collect()
        found = {(r["origin"], r["origin_offset"]): r["raw_value"] for r in rows}
        assert len(found) == len(rows), f"a (file, line) landed twice in raw_{format_id}"
        return found

    plan = {format_id: [folder / format_id] for format_id in files}
    results = land_formats(spark, plan, threads=3, **settings)
    assert list(results) == list(plan)
    for format_id, data in files.items():
        assert landed(format_id) == expected_rows(data)
        assert results[format_id].messages_landed == len(expected_rows(data))
        assert results[format_id].table == f"{schema}.raw_{format_id}"
    again = land_formats(spark, plan, threads=3, **settings)
    assert [r.messages_landed for r in again.values()] == [0, 0, 0]

    # datastream has no landing table in this pipeline: it fails, canal's new file still lands
    more = folder / "canal" / "more.jsonl"
    more.write_bytes(b'{"more": 1}\n')
    with pytest.raises(SystemExit, match="raw_datastream"):
        land_formats(spark, {"datastream": [more], "canal": [folder / "canal"]}, threads=2, **settings)
    assert landed("canal") == expected_rows({**files["canal"], more: more.read_bytes()})


def test_lineage_seen_answers_from_the_rows_after_the_mark_and_the_named_origins(make_pipeline):
    """What a landing reads of its table before inserting (lineage_seen): the latest landing
    time, also of rows a landing killed before its commit mark left beyond the mark, and
    whether given origins (names with quotes: data, not SQL) or Kafka records landed before."""
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.landing import (
        LANDING_CREATED_MARK,
        committed_through,
        record_committed_batch,
    )

    spark = SparkSession.builder.getOrCreate()
    pipeline = make_pipeline("lineage", {"cdc_formats": ["canal", "debezium"]})
    pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
    table = f"{pipeline.schema}_landing.raw_canal"
    # created committed through the mark before any landing time (macro landing_created_mark),
    # which does not order the first batch: an empty table has no latest landing time
    assert committed_through(spark, table) == LANDING_CREATED_MARK
    assert lineage_seen(spark, table, ["a.jsonl"]) == {
        "latest": None, "files_landed_before": False, "records_landed_before": False,
    }
    odd = "landing/it's \\ \"odd\".jsonl"

    def insert(into: str, origin: str, partition: int | None, landed_at: str) -> None:
        # the landing time as text cast in Spark, as a timestamp literal is (session time zone)
        columns = spark.table(into).columns
        row = {"raw_value": "{}", "origin": origin, "origin_partition": partition, "origin_offset": 1, "landed_at": landed_at}
        spark.createDataFrame([tuple(str(row.get(c)) if row.get(c) is not None else None for c in columns)],
                              ", ".join(f"`{c}` string" for c in columns)) \
            .selectExpr(*[f"cast(`{c}` as {t})" for c, t in spark.table(into).dtypes]).write.insertInto(into)

    insert(table, odd, None, "2026-01-01 00:00:01")
    insert(table, "landing/b.jsonl", None, "2026-01-01 00:00:02")
    assert spark.sql(f"select origin from {table} where origin_offset = 1 order by landed_at").first()[0] == odd
    record_committed_batch(spark, table, dt.datetime(2026, 1, 1, 0, 0, 1))
    assert committed_through(spark, table) == dt.datetime(2026, 1, 1, 0, 0, 1)
    # the row of 00:00:02 lies beyond the mark (a landing killed before recording it): found
    seen = lineage_seen(spark, table, [odd, "landing/never.jsonl"])
    assert seen == {"latest": "2026-01-01 00:00:02", "files_landed_before": True, "records_landed_before": False}
    assert not lineage_seen(spark, table, ["landing/never.jsonl"])["files_landed_before"]
    assert next_landing_time("2999-01-01 00:00:00").isoformat(sep=" ") == "2999-01-01 00:00:00.000001"

    kafka = f"{pipeline.schema}_landing.raw_debezium"
    insert(kafka, "topic", 3, "2026-01-01 00:00:05")
    record_committed_batch(spark, kafka, dt.datetime(2026, 1, 1, 0, 0, 6))  # a mark above every row
    assert lineage_seen(spark, kafka, []) == {
        "latest": "2026-01-01 00:00:06.000000", "files_landed_before": False, "records_landed_before": True,
    }


def test_file_names_and_spark_paths():
    assert is_message_file("a.jsonl.gz") and is_message_file("a.json.bz2") and is_message_file("a.log")
    assert not is_message_file(".a.jsonl") and not is_message_file("a.md") and not is_message_file("a.gz")
    assert is_message_file("a.b64.gz", "dts_avro") and not is_message_file("a.b64.gz", "canal")
    assert spark_file_key("file:/tmp/a%20b%23c%25.jsonl") == "/tmp/a b#c%.jsonl"
    assert spark_file_key("file:///tmp/x.jsonl") == "/tmp/x.jsonl"
    assert spark_file_key("s3a://bucket/a%20b.jsonl") == "s3a://bucket/a b.jsonl"


def test_the_cli_lands_where_its_vars_say(landing, monkeypatch, capsys):
    """`cdc-pipeline land --vars` lands into the landing schema of those vars (the one the
    builds given the same `--vars` read), not dbt_project.yml's."""
    import json

    from python_udfs.pipeline.cli import main

    monkeypatch.setenv("DBT_TARGET_PATH", str(landing.work_dir / "target"))
    monkeypatch.setenv("DBT_LOG_PATH", str(landing.work_dir / "logs"))
    path = landing.work_dir / "cli" / "orders.jsonl"
    path.parent.mkdir()
    path.write_bytes(b'{"cli": 1}\n{"cli": 2}\n')
    dbt_vars = json.dumps({"cdc_formats": ["canal"], "cdc_landing_schema": f"{landing.schema}_landing"})
    assert main(["--project-dir", str(PROJECT_DIR), "land", "--format", "canal", "--vars", dbt_vars, str(path)]) == 0
    assert f"landed 2 new messages into {landing.schema}_landing.raw_canal" in capsys.readouterr().out
    origin = origin_name(path, PROJECT_DIR)
    assert {k: v for k, v in landed_rows(landing).items() if k[0] == origin} == {
        (origin, 1): '{"cli": 1}', (origin, 2): '{"cli": 2}',
    }
