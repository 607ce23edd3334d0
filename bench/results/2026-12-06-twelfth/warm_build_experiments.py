"""Experiments, not part of the suite: copied into tests/pytest/ as test_zz_experiment.py and
run alone (README.md). Both use the suite's Pipeline (in-process dbt, embedded Spark).

- test_gc: a 2,000-message Canal batch, then five of 200, each landed, built and checked; the
  time Python's cyclic garbage collector took per cycle (gc.callbacks). EXP_GC_THRESHOLD
  ("20000,10,10") or EXP_GC_FREEZE=1 change the collector first.
- test_loaders: twelve `dbt build`s of one pipeline, each handed a manifest decoded from msgpack
  (as conftest.py did) or unpickled (as it does now), alternately: the load and the build.
"""

import gc
import json
import os
import resource
import time

import pytest
from dbt.cli.main import dbtRunner
from dbt.contracts.graph.manifest import Manifest
from dbt.parser.manifest import extended_mashumaro_encoder, extended_mashumuro_decoder

from bench.generate import generate_format

from . import conftest

pytestmark = pytest.mark.dbt
COLLECTIONS = {"started": 0.0, "count": [0, 0, 0], "seconds": [0.0, 0.0, 0.0]}


def collected(phase, info):
    if phase == "start":
        COLLECTIONS["started"] = time.perf_counter()
    else:
        COLLECTIONS["count"][info["generation"]] += 1
        COLLECTIONS["seconds"][info["generation"]] += time.perf_counter() - COLLECTIONS["started"]


def test_gc(make_pipeline, tmp_path):
    if os.environ.get("EXP_GC_THRESHOLD"):
        gc.set_threshold(*map(int, os.environ["EXP_GC_THRESHOLD"].split(",")))
    if os.environ.get("EXP_GC_FREEZE"):
        gc.freeze()
    batches = [2000] + [200] * 5
    generate_format("canal", batches, 7, tmp_path / "stream", file_lines=0)
    pipeline = make_pipeline("exp")
    gc.callbacks.append(collected)
    out = []
    for index in range(len(batches)):
        lines = [line for path in sorted((tmp_path / "stream" / f"batch-{index}" / "canal").rglob("*.jsonl"))
                 for line in path.read_text().splitlines() if line.strip()]
        pipeline.land("canal", lines, name=f"b{index}.jsonl")
        before, started = sum(COLLECTIONS["seconds"]), time.time()
        pipeline.build()
        pipeline.check()
        out.append(f"{index} wall {time.time() - started:.2f} gc {sum(COLLECTIONS['seconds']) - before:.2f} "
                   f"collections {COLLECTIONS['count']} seconds {[round(s, 2) for s in COLLECTIONS['seconds']]}")
    out.append(f"maxrss MB {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}")
    print("\n".join(out))


def test_loaders(make_pipeline):
    pipeline = make_pipeline("exp", {"cdc_formats": ["canal"]})
    pipeline.build()
    msgpack = pipeline.manifest().to_msgpack(extended_mashumaro_encoder)
    os.environ["CDC_SCHEMA"] = pipeline.schema
    for index in range(12):
        pickled = index % 2 == 1
        started = time.time()
        manifest = (conftest.loaded_manifest(pipeline._manifest[1]) if pickled
                    else Manifest.from_msgpack(msgpack, decoder=extended_mashumuro_decoder))
        loaded, started = time.time() - started, time.time()
        result = dbtRunner(manifest=manifest).invoke([
            "build", "--no-write-json", "--project-dir", str(pipeline.project_dir),
            "--profiles-dir", str(conftest.PROJECT_DIR / "profiles"),
            "--target-path", str(pipeline.work_dir / "target"), "--log-path", str(pipeline.work_dir / "logs"), "--vars", json.dumps(pipeline.vars)])
        assert result.success
        print(f"{'pickle' if pickled else 'msgpack'} load {loaded:.3f} build {time.time() - started:.2f}")
