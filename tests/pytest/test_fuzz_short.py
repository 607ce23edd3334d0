"""The short version of `make fuzz` (bench/fuzz.py), in CI: every format's real message
shapes, mutated with a fixed seed (cut short, retyped, huge, deep, random bytes, far-future
times, hostile names), landed and built with the project's own landing and `dbt build`.
Properties: no crash (no model or test errors, no exception) and no unaccounted message (the
three accounting tests find nothing). `make fuzz` runs the same with 100,000 messages per
format; its figures are in bench/results/fuzz-<date>.md."""

from __future__ import annotations

import pytest

from bench.fuzz import ALL_FORMATS, fuzz_format

pytestmark = pytest.mark.dbt

MESSAGES = 300


@pytest.mark.parametrize("format_id", ALL_FORMATS)
def test_mutated_messages_never_crash_a_build_nor_go_unaccounted(format_id, spark_home, tmp_path):
    figures = fuzz_format(format_id, MESSAGES, seed=20261125, work_dir=tmp_path)
    assert figures["landed"] == MESSAGES, figures["errors"]
    assert figures["crashes"] == 0, figures["errors"]
    assert figures["unaccounted"] == 0, figures["errors"]
    assert figures["quarantined"] > 0  # the mutations do reach the quarantine
