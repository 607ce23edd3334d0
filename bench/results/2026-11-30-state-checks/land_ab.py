"""Paired A/B of `land_files` in one warm process: this checkout's against an older copy.

    git show 9edf8e8:python_udfs/pipeline/landing.py > /tmp/landing_old.py
    CDC_LOCAL_DIR=<a built warehouse of the five formats> \
        python bench/results/2026-11-30-state-checks/land_ab.py /tmp/landing_old.py STREAM WORK PAIRS VARS_JSON

STREAM is a `bench.generate` stream of the five formats (batch-N/<format>/*.jsonl); each land
copies a batch's files under new names into WORK, so every landing reads new files. Pairs
alternate which version goes first; the first pair is left out of the medians.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from python_udfs.pipeline import landing as new  # noqa: E402
from python_udfs.pipeline.cli import run_dbt, spark_session  # noqa: E402

FORMATS = ["canal", "datahub_tuple", "dataworks", "debezium", "shareplex"]


def main() -> None:
    old_path, stream, work, pairs, dbt_vars = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    spec = importlib.util.spec_from_file_location("python_udfs.pipeline.landing_old", old_path)
    old = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = old
    spec.loader.exec_module(old)
    project = Path(__file__).resolve().parents[3]
    assert run_dbt(project, ["run-operation", "create_landing_tables", "--quiet", "--vars", dbt_vars])
    landing_schema = json.loads(dbt_vars).get("cdc_landing_schema", "cdc_landing")
    spark = spark_session()
    times: dict[str, list[float]] = {"new": [], "old": []}
    batches = sorted(p for p in stream.iterdir() if p.name.startswith("batch-"))
    for i in range(pairs):
        order = (("new", new), ("old", old)) if i % 2 == 0 else (("old", old), ("new", new))
        for name, module in order:
            batch = batches[1 + i % (len(batches) - 1)]
            started = time.perf_counter()
            for format_id in FORMATS:
                folder = work / uuid.uuid4().hex / format_id
                folder.mkdir(parents=True)
                for path in (batch / format_id).rglob("*.jsonl"):
                    shutil.copy(path, folder / path.name)
                module.land_files(spark, format_id, [folder], project_dir=project, landing_schema=landing_schema,
                                  scratch_dir=work / "scratch", progress=False)
            times[name].append(time.perf_counter() - started)
        print(i, {k: round(v[-1], 2) for k, v in times.items()}, flush=True)
    ratios = [a / b for a, b in zip(times["new"][1:], times["old"][1:])]
    print(f"median new {statistics.median(times['new'][1:]):.2f} s, old {statistics.median(times['old'][1:]):.2f} s;"
          f" new/old pair by pair: median {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
