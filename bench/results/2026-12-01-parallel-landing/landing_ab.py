"""Landing of five formats' small batches, one after another against side by side (README here).

    CDC_LOCAL_DIR=<a warehouse with the landing tables, e.g. a `bench.run --only small` run's>
    CDC_SCHEMA=bench .venv/bin/python bench/results/2026-12-01-parallel-landing/landing_ab.py STREAM ROUNDS VARS_JSON

STREAM holds batch-<k>/<format>/ folders (bench.generate, e.g. generate_format(f, [200] * 13,
seed, STREAM, file_lines=0)); each batch is landed once, in one warm process, with 1 or 4
threads in the order 1, 4, 4, 1, 1, 4, 4, ... (round 0 warms the JVM, with 1 thread).
Prints one line per round: threads, seconds, messages landed per format.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("CDC_WHOLE_STAGE_CODEGEN", "false")  # as the watch runs a small batch
os.environ.setdefault("CDC_CODEGEN_FACTORY_MODE", "NO_CODEGEN")

from python_udfs.pipeline import cli  # noqa: E402
from python_udfs.pipeline.landing import land_formats  # noqa: E402

PROJECT = Path(__file__).resolve().parents[3]
stream, rounds, dbt_vars = Path(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
cli.run_dbt(
    PROJECT, ["run-operation", "create_landing_tables", "--quiet", "--vars", json.dumps(dbt_vars)]
)

from pyspark.sql import SparkSession  # noqa: E402

spark = SparkSession.builder.getOrCreate()
for k in range(rounds):
    threads = [1, 4][(k + k // 2) % 2] if k else 1
    plan = {f: [stream / f"batch-{k}" / f] for f in dbt_vars["cdc_formats"]}
    started = time.perf_counter()
    results = land_formats(
        spark,
        plan,
        threads=threads,
        project_dir=PROJECT,
        landing_schema=dbt_vars.get("cdc_landing_schema", "cdc_landing"),
        progress=False,
    )
    print(
        f"round {k} threads {threads} {time.perf_counter() - started:.2f} s "
        f"{[r.messages_landed for r in results.values()]}",
        flush=True,
    )
