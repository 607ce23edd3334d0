"""The benchmark's reading of the Spark floor (bench/run.py): its output line, and the ratio
of ours to the floor's work (both without their process start) in the peer figures."""

from __future__ import annotations

import pytest

from bench.run import derive, parse_floor_line


def test_the_floor_line_is_read_into_seconds_and_rows():
    line = "format=canal change_log=yes start=6.3s change_log_s=19.7 state_s=6.9 total=33.0s live_rows=417596"
    assert parse_floor_line(line) == {
        "start_seconds": 6.3, "change_log_seconds": 19.7, "state_seconds": 6.9,
        "total_seconds": 33.0, "live_rows": 417596,
    }


def test_ours_is_divided_by_the_floors_work_without_its_start():
    ours = {"messages": 1000, "steps": {"land": {"seconds": 13.0}, "build": {"seconds": 68.6}},
            "verify": {"ok": True}, "peak_rss_gib": 8.0}
    floor = parse_floor_line("format=canal change_log=yes start=6.3s change_log_s=19.7 state_s=6.9 "
                             "total=33.0s live_rows=5")
    peer = derive({"peer-canal": ours, "floor-canal": floor})["peer-canal"]
    assert peer["floor_seconds"] == 26.6 and peer["floor_total_seconds"] == 33.0
    assert peer["ours_vs_floor"] == pytest.approx(81.6 / 26.6, abs=0.005)
    # a floor that failed or was skipped leaves no ratio
    assert "ours_vs_floor" not in derive({"peer-canal": ours, "floor-canal": {"skipped": "no script"}})["peer-canal"]
