"""The 1M mixed batch landed into fresh tables with N formats at a time (land_formats'
`threads`), the variants alternating in one warm JVM: wall and JVM CPU seconds per landing.

    .venv/bin/python bench/results/2026-12-05-fourth-small-levers/land_threads_ab.py ROUNDS 4 5

Needs the 1M benchmark's stream and warehouse (`bench.run --only main --sizes 1000000`): its
landing tables give the new tables' definitions; each landing's schema is dropped after it.
"""
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench/results/2026-12-03-night-one-shuffle"))
import ab_compiled_sql  # noqa: E402

from python_udfs.pipeline.landing import land_formats  # noqa: E402

FORMATS = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
STREAM = ROOT / "bench/work/streams/mixed-1000000/batch-0"
spark = ab_compiled_sql.session(str(ROOT / "bench/work/runs/main/cdc_local"))
pid = spark._jvm.java.lang.ProcessHandle.current().pid()
tick = os.sysconf("SC_CLK_TCK")
scratch = Path(tempfile.mkdtemp(prefix="land-ab-"))


def cpu() -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick


def land(threads: int, tag: str) -> tuple[float, float]:
    schema = f"landab_{tag}"
    spark.sql(f"drop database if exists {schema} cascade")
    spark.sql(f"create database {schema}")
    for format_id in FORMATS:
        spark.sql(f"create table {schema}.raw_{format_id} like bench_landing.raw_{format_id}")
    cpu_before, started = cpu(), time.perf_counter()
    results = land_formats(spark, {f: [STREAM / f] for f in FORMATS}, threads=threads, project_dir=ROOT,
                           landing_schema=schema, scratch_dir=scratch, progress=False)
    wall, used = time.perf_counter() - started, cpu() - cpu_before
    assert sum(r.messages_landed for r in results.values()) == 1_000_000
    spark.sql(f"drop database {schema} cascade")
    return round(wall, 2), round(used, 1)


rounds, variants = int(sys.argv[1]), [int(v) for v in sys.argv[2:]]
land(variants[0], "warmup")
figures: dict = {v: [] for v in variants}
for round_ in range(rounds):
    for threads in variants if round_ % 2 == 0 else variants[::-1]:
        figures[threads].append(land(threads, f"{threads}_{round_}"))
    print(round_, {v: figures[v][-1] for v in variants}, "load", os.getloadavg()[0], flush=True)
for threads, runs in figures.items():
    print(f"{threads} threads: wall median {statistics.median(w for w, _ in runs):.2f} s {sorted(w for w, _ in runs)},"
          f" CPU median {statistics.median(c for _, c in runs):.1f} s")
