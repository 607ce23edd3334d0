"""Experiment (not committed): warm builds of a Canal-only pipeline with the five default
formats enabled; per-build wall seconds appended to $AB_OUT."""
import glob
import os
import time

import pytest

pytestmark = pytest.mark.dbt


def lines(batch):
    out = []
    for f in sorted(glob.glob(f"/tmp/one-format/stream/batch-{batch}/canal/*/*.jsonl")):
        out += [l for l in open(f, encoding="utf-8").read().splitlines() if l.strip()]
    return out


def test_warm_builds(make_pipeline):
    pipeline = make_pipeline("abwarm")  # the project's default formats
    pipeline.land("canal", lines(0))
    pipeline.build()
    times = []
    for batch in range(1, 7):
        pipeline.land("canal", lines(batch))
        start = time.monotonic()
        pipeline.build()
        times.append(round(time.monotonic() - start, 2))
    start = time.monotonic()
    pipeline.build()
    noop = round(time.monotonic() - start, 2)
    with open(os.environ["AB_OUT"], "a") as out:
        out.write(f"{os.getcwd()} builds {times} nothing-new {noop}\n")
