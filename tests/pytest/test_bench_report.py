"""The benchmark's reading of the Spark floor (bench/run.py): its output line, and the ratio
of ours to the floor's work (both without their process start) in the peer figures; target 1
as the issue counts it (whole processes, our build through row_history); the small-batch
watch's figures (bench/small.py): the target's batches and its steady state."""

from __future__ import annotations

import pytest

from bench.run import derive, markdown, parse_floor_line
from bench.small import watch_figures


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


def test_target_one_compares_whole_processes_through_row_history():
    # ours: bare start 9 + land 6 + build 50, of which row_history's two models 8
    ours = {"messages": 1000, "steps": {"jvm_start": {"seconds": 9.0}, "land": {"seconds": 6.0},
                                        "build": {"seconds": 50.0}},
            "build_models": {"stg_canal__events": 30.0, "int_current_state_layers": 10.0,
                             "int_row_history_layers": 7.5, "row_history": 0.5},
            "verify": {"ok": True, "tables": {"t": {"expected_live_rows": 2}}}, "peak_rss_gib": 5.0,
            "peer_checksums": {"t": {"live_rows": 2, "checksum": 7}}}
    flink = {"seconds_job": 16.0, "seconds_total": 18.0, "peak_rss_gib": 3.0,
             "tables": {"t": {"live_rows": 2, "checksum": 7}}}
    figures = derive({"peer-canal": ours, "flink-canal": flink})
    peer = figures["peer-canal"]
    assert peer["through_row_history"] and peer["ours_whole_seconds"] == 65.0
    assert peer["ours_whole_vs_flink_whole"] == pytest.approx(65.0 / 18.0, abs=0.005)
    # row_history's models ran beside current_state's: no figure to current_state alone
    assert peer["ours_to_current_state_seconds"] is None and "ours_vs_flink_job" not in peer
    assert peer["final_states_agree"]
    target = figures["targets"]["Canal: ours <= Flink (whole processes, through row_history)"]
    assert target["value"] == peer["ours_whole_vs_flink_whole"] and not target["met"]
    # a run that built to current_state only says so
    ours_to_state = {**ours, "build_models": {"stg_canal__events": 30.0}}
    earlier = derive({"peer-canal": ours_to_state, "flink-canal": flink})
    assert "Canal: ours <= Flink (whole processes, to current_state)" in earlier["targets"]
    assert earlier["peer-canal"]["ours_vs_flink_job"] == pytest.approx(56.0 / 16.0, abs=0.005)


def test_the_watch_steady_state_is_the_median_of_its_last_three_batches():
    figures = watch_figures([46.4, 26.1, 24.7, 21.7, 21.5, 22.4, 22.7], reps=3)
    assert figures["watch_batch_s"] == [46.4, 26.1, 24.7] and figures["watch_batch_median_s"] == 26.1
    assert figures["watch_steady_s"] == [21.7, 21.5, 22.4, 22.7] and figures["watch_steady_median_s"] == 22.4
    # no batch after the timed ones: no steady figure
    assert "watch_steady_median_s" not in watch_figures([43.4], reps=1)
    small = {"batch_messages": 1000, "formats": ["canal"], "reps": 3, "bare_start_s": [10.0], "bare_start_median_s": 10.0,
             "noop_build_s": [11.0], "noop_build_median_s": 11.0, "noop_build_vs_start": 1.1,
             "batch_build_s": [40.0], "batch_build_median_s": 40.0, "batch_build_vs_start": 4.0, **figures}
    report = {"date": "2026-12-05", "load_start": [], "load_end": [],
              "machine": {"cpus": 2, "cpu_model": "x", "memory": "1 kB", "java": "17"},
              "settings": {"spark_cores": "2", "driver_memory": "8g"},
              "figures": {"small": small, "targets": {}}}
    assert "4 batches later (median of the last three, the JIT's warm-up done): 22.4 s" in markdown(report)
