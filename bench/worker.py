"""One benchmark scenario in one process (one JVM): called by bench/run.py, not by hand.

    python -m bench.worker SCENARIO.json RESULT.json

The scenario says which generated stream to use, which dbt vars, and which steps to time:
``floor`` (Spark reads the raw files and parses the JSON once), ``land`` + ``build`` (the
project's landing code and dbt, in-process, as ``cdc-pipeline land`` / ``cdc-pipeline dbt``),
``increment`` (land the second batch, build again), ``verify`` (live rows and checksums of
``current_state`` against the generator's final state), ``udfs`` (the Python UDFs against
Spark built-ins). The JVM start is timed apart (``jvm_start``) and excluded from the rest.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def tree_cpu_seconds() -> float:
    """CPU time (user + system) of this process and every live descendant (the JVM, the
    Python UDF workers): the figure that does not depend on what else runs on the machine."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / ticks
    own = os.times()
    total, stack = own.user + own.system, [os.getpid()]
    while stack:
        current = stack.pop()
        for child, parent in parents.items():
            if parent == current:
                total += times.get(child, 0.0)
                stack.append(child)
    return total


class Timer:
    def __init__(self, figures: dict, name: str) -> None:
        self.figures, self.name = figures, name

    def __enter__(self):
        self.started = time.perf_counter()
        self.wall_start = time.time()
        self.cpu_start = tree_cpu_seconds()
        self.load_before = load()
        return self

    def __exit__(self, *exc):
        seconds = time.perf_counter() - self.started
        self.figures[self.name] = {
            "seconds": round(seconds, 3),
            "window_ms": [int(self.wall_start * 1000), int(time.time() * 1000)],
            "cpu_seconds": round(tree_cpu_seconds() - self.cpu_start, 1),
            "load_before": self.load_before,
            "load_after": load(),
        }
        print(f"[bench] {self.name}: {seconds:.1f} s (load {self.load_before[0]} -> {load()[0]})", flush=True)
        return False


def dbt(args: list[str], dbt_vars: dict, work: Path) -> dict[str, float]:
    """Run dbt in-process; returns seconds per model (fails loudly)."""
    from dbt.cli.main import dbtRunner

    result = dbtRunner().invoke(
        [
            *args,
            "--project-dir", str(PROJECT_DIR),
            "--profiles-dir", str(PROJECT_DIR / "profiles"),
            "--target-path", str(work / "target"),
            "--log-path", str(work / "logs"),
            "--vars", json.dumps(dbt_vars),
            "--quiet",
        ]
    )
    if not result.success:
        raise SystemExit(f"dbt {' '.join(args)} failed: {result.exception or result.result}")
    timings = {}
    for node_result in getattr(result.result, "results", None) or []:
        node = getattr(node_result, "node", None)
        if node is not None:
            timings[node.name] = round(node_result.execution_time, 3)
    return timings


def message_schema(format_id: str) -> str:
    """The format's from_json schema, read from its macro (the text the staging model uses)."""
    text = (PROJECT_DIR / "macros" / "formats" / f"{format_id}.sql").read_text(encoding="utf-8")
    match = re.search(
        r"{%\s*macro\s+" + format_id + r"__message_schema\(\)\s*-?%}(.*?){%-?\s*endmacro", text, re.S
    )
    if not match:
        raise SystemExit(f"no {format_id}__message_schema() in macros/formats/{format_id}.sql")
    schema = " ".join(match.group(1).split())
    if format_id == "debezium":
        # the format reads before/after apart (as VARIANT maps); parse them here as maps
        schema = schema.replace("struct< ", "struct< before: map<string, string>, after: map<string, string>, ", 1)
    return schema


def floor(spark, stream: Path, formats: list[str]) -> dict:
    """Spark reads the raw files and parses every message once with the format's schema."""
    from pyspark.sql import functions as F

    per_format = {}
    for format_id in formats:
        started = time.perf_counter()
        raw = spark.read.option("recursiveFileLookup", "true").text(str(stream / "batch-0" / format_id))
        parsed = raw.select(F.from_json("value", message_schema(format_id)).alias("message"))
        parsed.write.format("noop").mode("overwrite").save()
        per_format[format_id] = round(time.perf_counter() - started, 3)
    return per_format


def land(spark, stream: Path, batch: str, formats: list[str], landing_schema: str, work: Path) -> dict:
    """The batch's formats landed as `cdc-pipeline land` lands them: side by side, each into its
    own table (land_formats, CDC_LANDING_THREADS)."""
    from python_udfs.pipeline.landing import land_formats

    plan = {f: [stream / batch / f] for f in formats if (stream / batch / f).is_dir()}
    results = land_formats(
        spark, plan, project_dir=PROJECT_DIR, landing_schema=landing_schema,
        scratch_dir=work / "scratch", progress=False,
    )
    return {format_id: result.messages_landed for format_id, result in results.items()}


def checksum_sql(text_expr: str) -> str:
    digest = f"md5({text_expr})"
    return " + ".join(f"cast(ascii(substring({digest}, {i + 1}, 1)) as bigint) * {131 ** i}" for i in range(4))


def verify(spark, schema: str, expected: dict, formats: list[str]) -> dict:
    """Live rows and checksums of current_state per table against the generator's."""
    out = {"ok": True, "tables": {}}
    for format_id in formats:
        for table_id, want in expected["formats"][format_id]["checksums"].items():
            text = "concat_ws('|', " + ", ".join(f"row_image['{c}']" for c in want["columns"]) + ")"
            got = spark.sql(
                f"""select count(*) as live_rows, coalesce(sum({checksum_sql(text)}), 0) as checksum
                    from {schema}.current_state
                    where not is_deleted and source_format = '{format_id}' and table_id = '{table_id}'"""
            ).first()
            ok = got["live_rows"] == want["live_rows"] and got["checksum"] == want["checksum"]
            out["tables"][table_id] = {
                "live_rows": got["live_rows"], "checksum": got["checksum"],
                "expected_live_rows": want["live_rows"], "expected_checksum": want["checksum"], "ok": ok,
            }
            out["ok"] = out["ok"] and ok
    def count(table: str) -> int | None:  # a build to current_state only has no quarantine
        if not spark.catalog.tableExists(f"{schema}.{table}"):
            return None
        return spark.sql(f"select count(*) as n from {schema}.{table}").first()["n"]

    counts, held = count("quarantine"), count("unpaired_update_halves")
    out["ok"] = out["ok"] and not counts and not held
    out["quarantined"] = counts
    out["unpaired_halves"] = held
    print(f"[bench] verify: {'OK' if out['ok'] else 'MISMATCH'} ({len(out['tables'])} tables, "
          f"{counts} quarantined, {held} unpaired halves)", flush=True)
    return out


def udfs(spark, values: int) -> dict:
    """Each Python UDF against the nearest Spark built-in (Base64), ddlMeta decodes per second."""
    from pyspark.sql import functions as F

    from python_udfs.spark_udfs import register_udfs

    register_udfs(spark)
    out: dict = {"values": values}
    source = spark.range(values, numPartitions=2).select(
        F.base64(F.concat(F.lit("gift note "), F.col("id").cast("string"), F.lit(" \u00e9t\u00e9"))).alias("v")
    )
    source.write.mode("overwrite").parquet(str(Path(os.environ["CDC_LOCAL_DIR"]) / "bench_base64"))
    data = spark.read.parquet(str(Path(os.environ["CDC_LOCAL_DIR"]) / "bench_base64"))
    data.createOrReplaceTempView("bench_base64")
    variants = {
        # what the project's UDF returns: bytes, UTF-8 text, error
        "udf_cdc_decode_base64": "select cdc_decode_base64(v) as d from bench_base64",
        # the nearest built-ins giving the same fields
        "builtin_unbase64": (
            "select named_struct('value_bytes', b, 'value_text', try_validate_utf8(cast(b as string)),"
            " 'error', case when b is null then 'invalid' end) as d"
            " from (select try_to_binary(v, 'base64') as b from bench_base64)"
        ),
    }
    for name, sql in variants.items():
        spark.sql(sql).write.format("noop").mode("overwrite").save()  # warm (Python workers)
        started = time.perf_counter()
        spark.sql(sql).write.format("noop").mode("overwrite").save()
        out[name] = {"seconds": round(time.perf_counter() - started, 3), "load": load()}
    out["base64_ratio_udf_to_builtin"] = round(
        out["udf_cdc_decode_base64"]["seconds"] / out["builtin_unbase64"]["seconds"], 2
    )
    # ddlMeta: the seed's real DDL message (an ALTER TABLE, 2.3 kB of Java serialization),
    # one partition = one core
    seed = json.loads((PROJECT_DIR / "tests" / "fixtures" / "dataworks" / "seed000_ddl_alter.json").read_text())
    ddl_meta = seed["payload"]["ddl"]["ddlMeta"]
    decodes = max(values // 50, 1000)
    frame = spark.range(decodes, numPartitions=1).select(F.lit(ddl_meta).alias("m"))
    frame.createOrReplaceTempView("bench_ddl_meta")
    sql = "select cdc_decode_ddl_meta(m) as d from bench_ddl_meta"
    spark.sql(sql).limit(10).collect()
    started = time.perf_counter()
    errors = spark.sql(f"select count_if(d.error is not null) as e from ({sql})").first()["e"]
    seconds = time.perf_counter() - started
    # the decoder alone, in this process (no Spark, no Arrow): what the UDF's Python costs
    from python_udfs.decoders.base64_values import decode_base64
    from python_udfs.decoders.ddl_meta import decode_ddl_meta_json

    started = time.perf_counter()
    for _ in range(decodes):
        decode_ddl_meta_json(ddl_meta)
    pure = time.perf_counter() - started
    out["ddl_meta"] = {
        "decodes": decodes, "seconds": round(seconds, 3), "errors": errors,
        "decodes_per_second_per_core": round(decodes / seconds), "load": load(),
        "pure_python_decodes_per_second": round(decodes / pure),
        "bytes": len(ddl_meta),
    }
    sample = [row["v"] for row in data.limit(100_000).collect()]
    started = time.perf_counter()
    for value in sample:
        decode_base64(value)
    out["base64_pure_python_per_million_s"] = round((time.perf_counter() - started) * 1_000_000 / len(sample), 2)
    print(f"[bench] udfs: {json.dumps(out)}", flush=True)
    return out


def main(scenario_path: str, result_path: str) -> int:
    scenario = json.loads(Path(scenario_path).read_text(encoding="utf-8"))
    stream = Path(scenario["stream_dir"])
    work = Path(scenario["work_dir"])
    formats = scenario["formats"]
    schema = os.environ["CDC_SCHEMA"]
    landing_schema = f"{schema}_landing"
    dbt_vars = {"cdc_landing_schema": landing_schema, **scenario["vars"]}
    expected = json.loads((stream / "expected.json").read_text(encoding="utf-8"))
    figures: dict = {"name": scenario["name"], "steps": {}, "load_start": load()}
    steps = figures["steps"]
    build_args = ["run", *(["--select", scenario["select"]] if scenario.get("select") else [])]

    with Timer(steps, "jvm_start"):
        dbt(["run-operation", "create_landing_tables"], dbt_vars, work)
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    figures["spark_conf"] = {
        k: spark.conf.get(k) for k in ("spark.master", "spark.driver.memory", "spark.sql.shuffle.partitions")
    }
    messages = {f: expected["formats"][f]["messages_per_batch"] for f in formats}
    figures["messages"] = sum(m[0] for m in messages.values())
    figures["increment_messages"] = sum(m[1] for m in messages.values() if len(m) > 1)

    if "floor" in scenario["steps"]:
        with Timer(steps, "floor"):
            figures["floor_per_format"] = floor(spark, stream, formats)
    if "land" in scenario["steps"]:
        with Timer(steps, "land"):
            figures["landed"] = land(spark, stream, "batch-0", formats, landing_schema, work)
    if "build" in scenario["steps"]:
        with Timer(steps, "build"):
            figures["build_models"] = dbt(build_args, dbt_vars, work)
        if "increment" not in scenario["steps"]:
            figures["verify"] = verify(spark, schema, expected, formats)
    if "increment" in scenario["steps"]:
        with Timer(steps, "increment_land"):
            figures["increment_landed"] = land(spark, stream, "batch-1", formats, landing_schema, work)
        with Timer(steps, "increment_build"):
            figures["increment_models"] = dbt(build_args, dbt_vars, work)
        figures["verify"] = verify(spark, schema, expected, formats)
    if "peer_checksums" in scenario:
        figures["peer_checksums"] = {}
        for table_id, columns in scenario["peer_checksums"].items():
            values = [
                f"decode(try_to_binary(row_image['{c}'], 'base64'), 'ISO-8859-1')" if encoding == "latin1_text"
                else f"row_image['{c}']"
                for c, encoding in columns
            ]
            text = "concat_ws('|', " + ", ".join(values) + ")"
            row = spark.sql(
                f"""select count(*) as live_rows, coalesce(sum({checksum_sql(text)}), 0) as checksum
                    from {schema}.current_state where not is_deleted and table_id = '{table_id}'"""
            ).first()
            figures["peer_checksums"][table_id] = {"live_rows": row["live_rows"], "checksum": row["checksum"]}
    if "udfs" in scenario["steps"]:
        with Timer(steps, "udfs"):
            figures["udfs"] = udfs(spark, scenario.get("udf_values", 1_000_000))
    figures["load_end"] = load()
    Path(result_path).write_text(json.dumps(figures, indent=2, default=str), encoding="utf-8")
    spark.stop()  # flushes the event log (the profile)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
