"""Experiment, not part of the suite: copied into tests/pytest/ and run alone (README). A small
pipeline with the default formats, one format landed: a batch of 2,000 messages, then
EXP_BATCHES batches of 200, each landed and built."""
import os

import pytest

from bench.generate import generate_format

pytestmark = pytest.mark.dbt


def test_small_batches(make_pipeline, tmp_path):
    formats = os.environ.get("EXP_FORMATS", "canal").split(",")
    batches = [2000] + [200] * int(os.environ.get("EXP_BATCHES", "6"))
    for f in formats:
        generate_format(f, batches, 7, tmp_path / "stream", file_lines=0)
    p = make_pipeline("exp", checks="each_build" if os.environ.get("EXP_CHECKS") else "at_end")
    for i in range(len(batches)):
        for f in formats:
            lines = [l for path in sorted((tmp_path / "stream" / f"batch-{i}" / f).rglob("*.jsonl"))
                     for l in path.read_text().splitlines() if l.strip()]
            p.land(f, lines, name=f"b{i}.jsonl")
        p.build()
    print("WORKDIR", p.work_dir)
