"""The benchmark command: generate streams, time the pipeline against its floor and a peer.

    make bench                                   # = .venv/bin/python -m bench.run
    .venv/bin/python -m bench.run --sizes 1000000,10000000 --peer-size 1000000

On the embedded default (local Spark, the project's profile), in this order:

1. ``main``: SIZE[0] mixed messages (every generated format, split evenly): the parse floor
   (Spark reads the same raw files and runs ``from_json`` with each format's schema once),
   the full build (land -> change_log -> current_state -> row_history; ``dbt run``), then 1%
   more messages landed and built incrementally; current_state checked against the
   generator's final state; the Python UDFs against Spark built-ins.
2. ``scale``: each further size once (floor, land, build, check), growth against SIZE[0].
3. ``peer``: PEER_SIZE Canal messages and PEER_SIZE Debezium messages (one file per table, as
   one ordered Kafka partition per table), our land + build through current_state and
   row_history (target 1's definition), and Apache Flink (``apache-flink`` 2.3, own venv:
   bench/setup_flink.sh) computing the final state with its canal-json / debezium-json
   formats on the same files; both final states compared. Target 1 compares whole processes
   (ours: the bare start + land + build; Flink: its JVM start + job); land + build against
   Flink's job is reported beside it (earlier runs' figure, then to current_state only).
   Then ``../shared/floor/spark_floor.py`` on the same files (skipped when absent): the
   least a hand-written Spark job does for the same result, the yardstick beside Flink.

Each scenario runs in its own process (one JVM) with a fresh warehouse under bench/work/;
peak memory is the largest resident set of that process tree (sampled every 0.5 s). Figures
go to bench/results/<date>.json and a markdown summary bench/results/<date>.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench.generate import FORMAT_WRITERS, base_tables, generate

PROJECT_DIR = Path(__file__).resolve().parents[1]
BENCH_DIR = PROJECT_DIR / "bench"
FLINK_VENV = PROJECT_DIR / ".bench" / "flink-venv"
# The models a peer build runs for row_history only (its figure to current_state leaves them out).
ROW_HISTORY_MODELS = ("int_row_history_layers", "row_history")
MAIN_FORMATS = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]

TARGETS = {
    "full_build_vs_floor": 3.0,
    "canal_ours_vs_flink": 1.0,
    "incremental_vs_full": 0.10,
    "scale_growth_10x": 12.0,
    "scale_peak_memory_gib": 24.0,
    "base64_udf_vs_builtin": 3.0,
    "ddl_meta_per_second_per_core": 2000,
    "noop_build_vs_start": 1.5,
    "batch_build_vs_start": 2.0,
    "watch_batch_seconds": 10.0,
}


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


# --------------------------------------------------------------------------------------------
# process-tree memory sampling (no psutil: /proc)
# --------------------------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return found


def tree_rss_bytes(pid: int) -> int:
    total, stack, page = 0, [pid], os.sysconf("SC_PAGE_SIZE")
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/statm", encoding="utf-8") as handle:
                total += int(handle.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
        stack.extend(_children(current))
    return total


def run_measured(command: list[str], env: dict, log_path: Path) -> tuple[int, int, float]:
    """Run a command; returns (exit code, peak RSS of its process tree in bytes, seconds)."""
    started = time.perf_counter()
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(command, env=env, cwd=PROJECT_DIR, stdout=log, stderr=subprocess.STDOUT)
        peak = 0
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, tree_rss_bytes(process.pid))
                done.wait(0.5)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        code = process.wait()
        done.set()
        sampler.join()
    return code, peak, time.perf_counter() - started


# --------------------------------------------------------------------------------------------
# scenarios
# --------------------------------------------------------------------------------------------


def ensure_stream(work: Path, name: str, formats: list[str], messages: int, increment: int, seed: int,
                  file_lines: int) -> Path:
    """Generate a stream once; reuse it when the same parameters were generated before."""
    out = work / "streams" / name
    marker = out / "expected.json"
    if marker.is_file():
        previous = json.loads(marker.read_text(encoding="utf-8"))
        if (previous.get("seed"), previous.get("messages"), previous.get("increment"),
                sorted(previous.get("formats", {})), previous.get("file_lines")) == (
                seed, messages, increment, sorted(formats), file_lines):
            print(f"[bench] stream {name}: reusing {out}", flush=True)
            return out
    shutil.rmtree(out, ignore_errors=True)
    print(f"[bench] stream {name}: generating {messages:,} (+{increment:,}) messages of {formats}", flush=True)
    started = time.perf_counter()
    generate(formats, messages, seed, out, increment=increment, file_lines=file_lines, workers=2)
    expected = json.loads(marker.read_text(encoding="utf-8"))
    expected["file_lines"] = file_lines
    expected["generation_seconds"] = round(time.perf_counter() - started, 1)
    marker.write_text(json.dumps(expected, indent=2), encoding="utf-8")
    return out


def run_worker(work: Path, name: str, scenario: dict, driver_memory: str) -> dict:
    scenario_dir = work / "runs" / name
    shutil.rmtree(scenario_dir, ignore_errors=True)
    scenario_dir.mkdir(parents=True)
    scenario = {"name": name, "work_dir": str(scenario_dir), **scenario}
    (scenario_dir / "scenario.json").write_text(json.dumps(scenario, indent=2), encoding="utf-8")
    events = scenario_dir / "eventlog"
    events.mkdir()
    env = {
        **os.environ,
        "CDC_LOCAL_DIR": str(scenario_dir / "cdc_local"),
        "CDC_LOG4J_CONFIG": str(PROJECT_DIR / "profiles" / "log4j2.properties"),
        "DBT_PROFILES_DIR": str(PROJECT_DIR / "profiles"),
        "CDC_SCHEMA": "bench",
        "CDC_DRIVER_MEMORY": driver_memory,
        "SPARK_LOCAL_IP": "127.0.0.1",
        "PYSPARK_PYTHON": sys.executable,
        # the Spark event log is the profile of every step (bench/profile.py reads it)
        "PYSPARK_SUBMIT_ARGS": (
            f"--conf spark.eventLog.enabled=true --conf spark.eventLog.dir=file://{events} "
            "--conf spark.eventLog.compress=false --conf spark.eventLog.rolling.enabled=false pyspark-shell"
        ),
    }
    result_path = scenario_dir / "result.json"
    print(f"[bench] scenario {name} (log: {scenario_dir / 'worker.log'})", flush=True)
    code, peak, seconds = run_measured(
        [sys.executable, "-m", "bench.worker", str(scenario_dir / "scenario.json"), str(result_path)],
        env, scenario_dir / "worker.log",
    )
    if code != 0:
        tail = (scenario_dir / "worker.log").read_text(encoding="utf-8", errors="replace")[-3000:]
        return {"name": name, "failed": True, "exit_code": code, "peak_rss_gib": round(peak / 2**30, 2),
                "seconds": round(seconds, 1), "log_tail": tail}
    result = json.loads(result_path.read_text(encoding="utf-8"))
    result["peak_rss_gib"] = round(peak / 2**30, 2)
    result["process_seconds"] = round(seconds, 1)
    try:
        from bench.profile import summarize

        windows = {step: tuple(v["window_ms"]) for step, v in result["steps"].items() if "window_ms" in v}
        result["profile"] = summarize(events, windows)
    except Exception as error:  # the profile is a help, never a reason to lose the figures
        result["profile_error"] = repr(error)
    return result


FLINK_TYPES = {
    "canal": {"int": "STRING", "text": "STRING", "decimal": "STRING", "timestamp": "STRING", "bytes": "STRING"},
    "debezium": {"int": "BIGINT", "text": "STRING", "decimal": "STRING", "timestamp": "BIGINT", "bytes": "STRING"},
}


def run_flink(work: Path, format_id: str, stream: Path) -> dict:
    python = FLINK_VENV / "bin" / "python"
    if not python.is_file():
        return {"skipped": f"no Flink venv at {FLINK_VENV}: run bench/setup_flink.sh"}
    writer = FORMAT_WRITERS[format_id]()
    tables = []
    for table in base_tables():
        tables.append({
            "name": table.name,
            "path": str(stream / "batch-0" / format_id / table.name),
            "columns": [[c.name, FLINK_TYPES[format_id][c.kind]] for c in table.columns],
            "key": list(table.key),
            "table_id": writer.table_id(table),
        })
    spec = {"format": f"{format_id}-json", "parallelism": os.cpu_count() or 2, "tables": tables}
    run_dir = work / "runs" / f"flink-{format_id}"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    (run_dir / "spec.json").write_text(json.dumps(spec, indent=2), encoding="utf-8")
    env = {**os.environ}
    if "JAVA_HOME" not in env:
        java = shutil.which("java")
        if java:
            env["JAVA_HOME"] = str(Path(java).resolve().parents[1])
    print(f"[bench] flink {format_id} (log: {run_dir / 'flink.log'})", flush=True)
    load_before = load()
    code, peak, seconds = run_measured(
        [str(python), str(BENCH_DIR / "flink" / "peer.py"), str(run_dir / "spec.json"), str(run_dir / "out.json")],
        env, run_dir / "flink.log",
    )
    if code != 0:
        return {"failed": True, "exit_code": code,
                "log_tail": (run_dir / "flink.log").read_text(errors="replace")[-3000:]}
    out = json.loads((run_dir / "out.json").read_text(encoding="utf-8"))
    out["peak_rss_gib"] = round(peak / 2**30, 2)
    out["process_seconds"] = round(seconds, 1)
    out["load_before"], out["load_after"] = load_before, load()
    out["tables"] = {t["table_id"]: out["tables"].get(t["name"]) for t in tables}
    return out


FLOOR_SCRIPT = PROJECT_DIR.parent / "shared" / "floor" / "spark_floor.py"


def parse_floor_line(line: str) -> dict:
    """The figures of spark_floor.py's one output line, e.g. ``format=canal change_log=yes
    start=6.3s change_log_s=19.7 state_s=6.9 total=33.0s live_rows=417596``."""
    fields = dict(item.split("=", 1) for item in line.split())
    return {
        "start_seconds": float(fields["start"].rstrip("s")),
        "change_log_seconds": float(fields["change_log_s"]),
        "state_seconds": float(fields["state_s"]),
        "total_seconds": float(fields["total"].rstrip("s")),
        "live_rows": int(fields["live_rows"]),
    }


def run_floor(work: Path, format_id: str, stream: Path) -> dict:
    """The yardstick beside a peer run: ../shared/floor/spark_floor.py (parse once, change log
    once, max_by to state) on the same files, in this virtual environment, as a whole process."""
    if not FLOOR_SCRIPT.is_file():
        return {"skipped": f"no {FLOOR_SCRIPT}"}
    run_dir = work / "runs" / f"floor-{format_id}"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    command = [sys.executable, str(FLOOR_SCRIPT), "--format", format_id, "--change-log"]
    if format_id == "debezium":  # Debezium messages carry no key: the generator's keys
        keys = run_dir / "keys.json"
        keys.write_text(json.dumps(FORMAT_WRITERS[format_id]().primary_keys(base_tables())), encoding="utf-8")
        command += ["--keys", str(keys)]
    command.append(str(stream / "batch-0" / format_id / "*" / "*.jsonl"))
    print(f"[bench] floor {format_id} (log: {run_dir / 'floor.log'})", flush=True)
    load_before = load()
    code, peak, seconds = run_measured(command, {**os.environ}, run_dir / "floor.log")
    text = (run_dir / "floor.log").read_text(errors="replace")
    line = next((x for x in text.splitlines() if x.startswith("format=")), None)
    if code != 0 or line is None:
        return {"failed": True, "exit_code": code, "log_tail": text[-3000:]}
    return {
        **parse_floor_line(line),
        "process_seconds": round(seconds, 1),
        "peak_rss_gib": round(peak / 2**30, 2),
        "load_before": load_before,
        "load_after": load(),
    }


# --------------------------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------------------------


def seconds(result: dict, step: str) -> float:
    return result["steps"][step]["seconds"]


def derive(results: dict) -> dict:
    """The headline figures and the targets."""
    figures: dict = {}
    main = results.get("main")
    if main and not main.get("failed"):
        full = seconds(main, "land") + seconds(main, "build")
        incremental = seconds(main, "increment_land") + seconds(main, "increment_build")
        cpu = {step: v.get("cpu_seconds") for step, v in main["steps"].items()}
        if cpu.get("floor") and cpu.get("land") is not None and cpu.get("build") is not None:
            full_cpu = cpu["land"] + cpu["build"]
            incremental_cpu = (cpu.get("increment_land") or 0) + (cpu.get("increment_build") or 0)
            figures["main_cpu"] = {
                "floor_cpu_seconds": cpu["floor"],
                "full_build_cpu_seconds": round(full_cpu, 1),
                "full_build_vs_floor_cpu": round(full_cpu / cpu["floor"], 2),
                "incremental_cpu_seconds": round(incremental_cpu, 1),
                "incremental_vs_full_cpu": round(incremental_cpu / full_cpu, 3),
            }
        figures["main"] = {
            "messages": main["messages"],
            "floor_seconds": seconds(main, "floor"),
            "full_build_seconds": round(full, 1),
            "land_seconds": seconds(main, "land"),
            "dbt_run_seconds": seconds(main, "build"),
            "messages_per_second": round(main["messages"] / full),
            "full_build_vs_floor": round(full / seconds(main, "floor"), 2),
            "increment_messages": main["increment_messages"],
            "incremental_seconds": round(incremental, 1),
            "incremental_dbt_run_seconds": seconds(main, "increment_build"),
            "incremental_vs_full": round(incremental / full, 3),
            "verified": main["verify"]["ok"],
            "peak_rss_gib": main["peak_rss_gib"],
            "jvm_start_seconds": seconds(main, "jvm_start"),
        }
        if "udfs" in main:
            figures["udfs"] = {
                "values": main["udfs"]["values"],
                "base64_udf_seconds": main["udfs"]["udf_cdc_decode_base64"]["seconds"],
                "base64_builtin_seconds": main["udfs"]["builtin_unbase64"]["seconds"],
                "base64_udf_vs_builtin": main["udfs"]["base64_ratio_udf_to_builtin"],
                "ddl_meta_per_second_per_core": main["udfs"]["ddl_meta"]["decodes_per_second_per_core"],
                "ddl_meta_pure_python_per_second": main["udfs"]["ddl_meta"].get("pure_python_decodes_per_second"),
                "base64_pure_python_per_million_s": main["udfs"].get("base64_pure_python_per_million_s"),
            }
    for name, result in results.items():
        if not name.startswith("scale-") or result.get("failed") or not figures.get("main"):
            continue
        full = seconds(result, "land") + seconds(result, "build")
        figures[name] = {
            "messages": result["messages"],
            "full_build_cpu_seconds": round(
                (result["steps"]["land"].get("cpu_seconds") or 0) + (result["steps"]["build"].get("cpu_seconds") or 0), 1),
            "floor_seconds": seconds(result, "floor"),
            "full_build_seconds": round(full, 1),
            "messages_per_second": round(result["messages"] / full),
            "growth_vs_main": round(full / figures["main"]["full_build_seconds"], 2),
            "size_ratio": round(result["messages"] / figures["main"]["messages"], 2),
            "full_build_vs_floor": round(full / seconds(result, "floor"), 2),
            "peak_rss_gib": result["peak_rss_gib"],
            "verified": result["verify"]["ok"],
        }
    for format_id in ("canal", "debezium"):
        ours, flink = results.get(f"peer-{format_id}"), results.get(f"flink-{format_id}")
        if not ours or ours.get("failed"):
            continue
        entry = {
            "messages": ours["messages"],
            "ours_seconds": round(seconds(ours, "land") + seconds(ours, "build"), 1),
            "ours_verified": ours["verify"]["ok"],
            "ours_peak_rss_gib": ours["peak_rss_gib"],
        }
        if "jvm_start" in ours["steps"]:
            # the whole process as target 1 counts it: the bare start (JVM, Spark session,
            # metastore, dbt) + land + build
            entry["ours_whole_seconds"] = round(seconds(ours, "jvm_start") + entry["ours_seconds"], 1)
        # runs before 2026-12-07's twentieth session built the peer to current_state only: their
        # land + build is the earlier runs' figure (a build through row_history runs its models
        # beside current_state's on two dbt threads, so its share cannot be subtracted)
        entry["through_row_history"] = any(k in ROW_HISTORY_MODELS for k in ours.get("build_models") or {})
        entry["ours_to_current_state_seconds"] = None if entry["through_row_history"] else entry["ours_seconds"]
        if flink and not flink.get("failed") and not flink.get("skipped"):
            entry["flink_job_seconds"] = flink["seconds_job"]
            entry["flink_total_seconds"] = flink["seconds_total"]
            entry["flink_peak_rss_gib"] = flink["peak_rss_gib"]
            if entry["ours_to_current_state_seconds"] is not None:
                entry["ours_vs_flink_job"] = round(entry["ours_to_current_state_seconds"] / flink["seconds_job"], 2)
            if "ours_whole_seconds" in entry:
                entry["ours_whole_vs_flink_whole"] = round(entry["ours_whole_seconds"] / flink["seconds_total"], 2)
            agree = all(
                (flink["tables"].get(t) or {}).get("live_rows") == v["live_rows"]
                and (flink["tables"].get(t) or {}).get("checksum") == v["checksum"]
                for t, v in ours["peer_checksums"].items()
            )
            entry["final_states_agree"] = agree
            expected = ours.get("verify", {}).get("tables", {})
            entry["flink_matches_generator"] = all(
                (flink["tables"].get(t) or {}).get("live_rows") == expected.get(t, {}).get("expected_live_rows")
                for t in ours["peer_checksums"]
            )
        floor = results.get(f"floor-{format_id}")
        if floor and not floor.get("failed") and not floor.get("skipped"):
            # both without their process start: ours is land + build, the floor's its work
            entry["floor_seconds"] = round(floor["change_log_seconds"] + floor["state_seconds"], 1)
            entry["floor_total_seconds"] = floor["total_seconds"]
            entry["ours_vs_floor"] = round(entry["ours_seconds"] / entry["floor_seconds"], 2)
            entry["floor_live_rows"] = floor["live_rows"]
        figures[f"peer-{format_id}"] = entry
    targets = {}
    if "main" in figures:
        targets["full build <= 3x parse floor (1M mixed)"] = (figures["main"]["full_build_vs_floor"], "<=", 3.0)
        targets["incremental 1% <= 10% of full build"] = (figures["main"]["incremental_vs_full"], "<=", 0.10)
    for format_id in ("canal", "debezium"):
        peer = figures.get(f"peer-{format_id}", {})
        if "ours_whole_vs_flink_whole" in peer:
            built = "through row_history" if peer["through_row_history"] else "to current_state"
            targets[f"{format_id.capitalize()}: ours <= Flink (whole processes, {built})"] = (
                peer["ours_whole_vs_flink_whole"], "<=", 1.0)
    for name, entry in figures.items():
        if name.startswith("scale-"):
            bound = round(12.0 * entry["size_ratio"] / 10, 2)
            targets[f"{entry['messages']:,} messages: time <= {bound}x the main run's"] = (
                entry["growth_vs_main"], "<=", bound)
            targets[f"{entry['messages']:,} messages: peak memory <= 24 GiB"] = (entry["peak_rss_gib"], "<=", 24.0)
    small = results.get("small")
    if small and "noop_build_vs_start" in small:
        figures["small"] = small
        targets["no-op dbt build <= 1.5x a bare process start"] = (small["noop_build_vs_start"], "<=", 1.5)
        targets["1,000-message batch landed + built <= 2x a bare start"] = (small["batch_build_vs_start"], "<=", 2.0)
        targets["watch: 1,000-message batch <= 10 s"] = (small["watch_batch_median_s"], "<=", 10.0)
    if "udfs" in figures:
        targets["Base64 UDF <= 3x the built-in"] = (figures["udfs"]["base64_udf_vs_builtin"], "<=", 3.0)
        targets["ddlMeta >= 2,000 decodes/s per core"] = (figures["udfs"]["ddl_meta_per_second_per_core"], ">=", 2000)
    figures["targets"] = {
        name: {"value": value, "target": f"{op} {bound:g}",
               "met": value <= bound if op == "<=" else value >= bound}
        for name, (value, op, bound) in targets.items()
    }
    return figures


def machine() -> dict:
    memory = ""
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            memory = handle.readline().split(":")[1].strip()
    except OSError:
        pass
    cpu = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            cpu = next((line.split(":")[1].strip() for line in handle if line.startswith("model name")), "")
    except OSError:
        pass
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return {"host": platform.node(), "cpus": os.cpu_count(), "cpu_model": cpu, "memory": memory,
            "python": platform.python_version(), "java": java[0] if java else "", "os": platform.platform()}


def markdown(report: dict) -> str:
    f = report["figures"]
    lines = [
        f"# Benchmark {report['date']}",
        "",
        f"Machine: {report['machine']['cpus']} cores ({report['machine']['cpu_model']}), "
        f"{report['machine']['memory']} RAM, {report['machine']['java']}; embedded Spark "
        f"(local[{report['settings']['spark_cores']}], driver memory {report['settings']['driver_memory']}). "
        f"Load average at start {report['load_start']}, at end {report['load_end']} "
        "(1/5/15 min; the machine may be shared: every step's load is in the JSON).",
        "",
        "## Targets",
        "",
        "| target | measured | bound | met |",
        "|---|---|---|---|",
    ]
    for name, t in f.get("targets", {}).items():
        lines.append(f"| {name} | {t['value']} | {t['target']} | {'yes' if t['met'] else '**no**'} |")
    if "main" in f:
        m = f["main"]
        lines += [
            "",
            f"## {m['messages']:,} mixed messages (dataworks, datahub_tuple, canal, debezium, shareplex)",
            "",
            f"- parse floor (Spark reads the raw files, from_json once): {m['floor_seconds']} s",
            f"- full build (land {m['land_seconds']} s + dbt run {m['dbt_run_seconds']} s): "
            f"{m['full_build_seconds']} s = {m['messages_per_second']:,} messages/s, "
            f"{m['full_build_vs_floor']}x the floor",
            f"- incremental ({m['increment_messages']:,} messages, 1%): {m['incremental_seconds']} s "
            f"(dbt run {m['incremental_dbt_run_seconds']} s) = {m['incremental_vs_full']:.1%} of the full build",
            *([f"- CPU time of the process tree (independent of the machine's other load): floor "
               f"{f['main_cpu']['floor_cpu_seconds']} s, full build {f['main_cpu']['full_build_cpu_seconds']} s "
               f"({f['main_cpu']['full_build_vs_floor_cpu']}x), incremental "
               f"{f['main_cpu']['incremental_cpu_seconds']} s ({f['main_cpu']['incremental_vs_full_cpu']:.1%})"]
              if "main_cpu" in f else []),
            f"- current_state equals the generator's final state: {m['verified']}; "
            f"peak memory {m['peak_rss_gib']} GiB; JVM start {m['jvm_start_seconds']} s (not counted)",
        ]
    for name, s in f.items():
        if name.startswith("scale-"):
            lines += [
                "",
                f"## {s['messages']:,} mixed messages",
                "",
                f"- full build {s['full_build_seconds']} s = {s['messages_per_second']:,} messages/s, "
                f"{s['growth_vs_main']}x the {f['main']['messages']:,} time ({s['size_ratio']}x the messages); "
                f"floor {s['floor_seconds']} s ({s['full_build_vs_floor']}x)",
                f"- peak memory {s['peak_rss_gib']} GiB; verified: {s['verified']}",
            ]
    for format_id in ("canal", "debezium"):
        p = f.get(f"peer-{format_id}")
        if not p:
            continue
        lines += ["", f"## Peer: {p['messages']:,} {format_id} messages, ours vs Apache Flink 2.3", ""]
        built = "through row_history" if p["through_row_history"] else "to current_state"
        lines.append(
            f"- ours: land + dbt run {built} {p['ours_seconds']} s; whole process with the bare start "
            f"{p.get('ours_whole_seconds', '-')} s; peak {p['ours_peak_rss_gib']} GiB"
        )
        if "flink_job_seconds" in p:
            lines.append(
                f"- Flink ({format_id}-json, filesystem source, streaming, PRIMARY KEY NOT ENFORCED, "
                f"cdc-events-duplicate): job {p['flink_job_seconds']} s (with JVM start "
                f"{p['flink_total_seconds']} s), peak {p['flink_peak_rss_gib']} GiB"
            )
            lines.append(
                f"- ours / Flink, whole processes (target 1): {p.get('ours_whole_vs_flink_whole', '-')}; land + "
                f"build / Flink's job: {round(p['ours_seconds'] / p['flink_job_seconds'], 2)}; final states "
                f"agree: {p['final_states_agree']}"
            )
        if "floor_seconds" in p:
            lines.append(
                f"- `spark_floor.py` on the same files: change log + state {p['floor_seconds']} s (whole "
                f"process {p['floor_total_seconds']} s with its start), {p['floor_live_rows']:,} live rows; "
                f"ours (land + build {built}; the floor builds no history) / floor: {p['ours_vs_floor']}"
            )
    if "small" in f:
        m = f["small"]
        lines += [
            "",
            f"## Small batches ({m['batch_messages']:,} messages of {', '.join(m['formats'])}; whole processes, median of {m['reps']})",
            "",
            f"- bare process start (`cdc-pipeline dbt run-operation create_landing_tables`): {m['bare_start_median_s']} s {m['bare_start_s']}",
            f"- `dbt build` with nothing new: {m['noop_build_median_s']} s {m['noop_build_s']} = {m['noop_build_vs_start']}x the start",
            f"- a new batch landed and built in one process: {m['batch_build_median_s']} s {m['batch_build_s']} = {m['batch_build_vs_start']}x the start",
            *([f"- the watch's warm-up on the bundled samples (before any batch is moved in): {m['watch_warm_up_s']} s"]
              if "watch_warm_up_s" in m else []),
            f"- warm `cdc-pipeline watch`, batch moved in -> built: {m['watch_batch_median_s']} s {m['watch_batch_s']}",
            *([f"- the same watch {len(m['watch_steady_s'])} batches later (median of the last three, the JIT's "
               f"warm-up done): {m['watch_steady_median_s']} s {m['watch_steady_s']}"] if m.get("watch_steady_s") else []),
            *([f"- the watch's data tests of those {m['watch_checks_batches']} batches, run once it was idle "
               f"(`--checks idle`): {m['watch_checks_s']} s"] if "watch_checks_s" in m else []),
            f"- load average before/after: {m.get('load_before')} / {m.get('load_after')}",
        ]
    if "udfs" in f:
        u = f["udfs"]
        lines += [
            "",
            "## Python UDFs",
            "",
            f"- cdc_decode_base64 on {u['values']:,} values: {u['base64_udf_seconds']} s vs built-in try_to_binary "
            f"{u['base64_builtin_seconds']} s = {u['base64_udf_vs_builtin']}x",
            f"- cdc_decode_ddl_meta: {u['ddl_meta_per_second_per_core']:,} decodes/s on one core "
            f"(the decoder alone, no Spark: {u['ddl_meta_pure_python_per_second']:,}/s)",
            f"- the Base64 decoder alone (no Spark): {u['base64_pure_python_per_million_s']} s per million",
        ]
    lines += ["", "Raw figures, per-step load and per-model times: the JSON file beside this one.", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000000,10000000", help="mixed message counts; the first is the main run")
    parser.add_argument("--peer-size", type=int, default=1_000_000, help="Canal and Debezium messages for the Flink comparison (0: skip)")
    parser.add_argument("--formats", default=",".join(MAIN_FORMATS))
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--driver-memory", default=os.environ.get("CDC_DRIVER_MEMORY", "8g"))
    parser.add_argument("--work", type=Path, default=BENCH_DIR / "work")
    parser.add_argument("--results", type=Path, default=BENCH_DIR / "results")
    parser.add_argument("--only", default="", help="comma list of: main, udfs, scale, peer (= peer-canal, peer-debezium), small; default all")
    parser.add_argument("--fresh", action="store_true", help="do not add to an existing results file of the day")
    parser.add_argument("--udf-values", type=int, default=1_000_000)
    parser.add_argument("--small-reps", type=int, default=3, help="runs of each small-batch figure (median)")
    parser.add_argument("--small-steady", type=int, default=4,
                        help="watch batches after the timed ones, for its steady state (median of the last three)")
    parser.add_argument("--keep-streams", action="store_true", help="keep generated files (default: delete when done)")
    args = parser.parse_args(argv)

    sizes = [int(s) for s in args.sizes.split(",") if s]
    formats = args.formats.split(",")
    only = set(args.only.split(",")) if args.only else {"main", "scale", "peer", "udfs", "small"}
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    started = dt.datetime.now(dt.timezone.utc)
    report: dict = {
        "date": started.strftime("%Y-%m-%d"),
        "started_at": started.isoformat(timespec="seconds"),
        "machine": machine(),
        "settings": {"sizes": sizes, "peer_size": args.peer_size, "formats": formats, "seed": args.seed,
                     "driver_memory": args.driver_memory, "spark_cores": os.environ.get("CDC_SPARK_CORES", "2")},
        "load_start": load(),
        "results": {},
    }
    previous = args.results / f"{report['date']}.json"
    if previous.is_file() and not args.fresh:
        # a second invocation the same day (e.g. --only scale) adds to that day's figures
        earlier = json.loads(previous.read_text(encoding="utf-8"))
        report["results"] = earlier.get("results", {})
        report["load_start"] = earlier.get("load_start", report["load_start"])
        report["started_at"] = earlier.get("started_at", report["started_at"])
    results = report["results"]
    keys: dict = {}
    for format_id in formats:
        keys.update(FORMAT_WRITERS[format_id]().primary_keys(base_tables()))
    base_vars = {"cdc_formats": formats, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False}

    def save() -> None:
        report["load_end"] = load()
        report["figures"] = derive(results)
        args.results.mkdir(parents=True, exist_ok=True)
        (args.results / f"{report['date']}.json").write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
        (args.results / f"{report['date']}.md").write_text(markdown(report), encoding="utf-8")

    if "main" in only and sizes:
        size = sizes[0]
        stream = ensure_stream(work, f"mixed-{size}", formats, size, size // 100, args.seed, 100_000)
        steps = ["floor", "land", "build", "increment"] + (["udfs"] if "udfs" in only else [])
        results["main"] = run_worker(work, "main", {"stream_dir": str(stream), "formats": formats,
                                                    "vars": base_vars, "steps": steps,
                                                    "udf_values": args.udf_values}, args.driver_memory)
        save()
    if "scale" in only:
        for size in sizes[1:]:
            stream = ensure_stream(work, f"mixed-{size}", formats, size, 0, args.seed, 100_000)
            results[f"scale-{size}"] = run_worker(
                work, f"scale-{size}",
                {"stream_dir": str(stream), "formats": formats, "vars": base_vars, "steps": ["floor", "land", "build"]},
                args.driver_memory,
            )
            save()
            if not args.keep_streams:
                shutil.rmtree(stream, ignore_errors=True)
    if "small" in only:
        from bench.small import run_small

        print("[bench] small batches (whole processes: bare start, no-op build, 1,000-message batch, watch)", flush=True)
        load_before = load()
        results["small"] = {**run_small(work, formats, base_vars, reps=args.small_reps, steady=args.small_steady), "load_before": load_before, "load_after": load()}
        save()
    peers = [f for f in ("canal", "debezium") if "peer" in only or f"peer-{f}" in only]
    if args.peer_size:
        for format_id in peers:
            # one file per table: the order Flink needs (it applies changes in file order)
            stream = ensure_stream(work, f"peer-{format_id}-{args.peer_size}", [format_id], args.peer_size, 0,
                                   args.seed, 0)
            writer = FORMAT_WRITERS[format_id]()
            peer_vars = {**base_vars, "cdc_formats": [format_id]}
            results[f"peer-{format_id}"] = run_worker(
                work, f"peer-{format_id}",
                {"stream_dir": str(stream), "formats": [format_id], "vars": peer_vars,
                 "steps": ["land", "build"], "select": "+current_state +row_history",
                 # binary columns compared in one encoding: Flink's canal-json keeps Canal's
                 # ISO-8859-1 text of the bytes, we keep Base64 (canonical); decode ours back
                 "peer_checksums": {
                     writer.table_id(t): [[c.name, "latin1_text" if format_id == "canal" and c.kind == "bytes"
                                           else "text"] for c in t.columns]
                     for t in base_tables()
                 }},
                args.driver_memory,
            )
            save()
            results[f"flink-{format_id}"] = run_flink(work, format_id, stream)
            save()
            results[f"floor-{format_id}"] = run_floor(work, format_id, stream)
            save()
    save()
    print((args.results / f"{report['date']}.md").read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
