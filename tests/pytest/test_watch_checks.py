"""A watch checks when idle (python_udfs/pipeline/watch.py, `--checks idle`): each batch builds
the models only, and the data tests of every batch built since the last checks run once nothing
has been due for `check_idle` seconds, or once the oldest unchecked batch has waited
`check_within` seconds. The loop's order is tested without Spark; a real watch in this worker's
session shows that one run of the checks covers every batch since the last, not only the last
one."""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from python_udfs.pipeline.watch import StopFlag, watch

from .conftest import PROJECT_DIR
from .test_checked_since import STAGED, canal_insert, checked_marks, results, rewrite
from .test_watch import drop

SAMPLE = (PROJECT_DIR / "samples" / "canal" / "store_products.jsonl").read_text(encoding="utf-8").splitlines()


class Script:
    """Drives a watch loop from its log: ``steps`` are (line prefix, action) pairs, each done
    once, in order, when a logged line starts with its prefix."""

    def __init__(self, steps: list[tuple[str, Callable[[], None]]]) -> None:
        self.steps, self.lines = list(steps), []

    def __call__(self, line: str) -> None:
        self.lines.append(line)
        if self.steps and line.startswith(self.steps[0][0]):
            self.steps.pop(0)[1]()


def loop(tmp_path, monkeypatch, steps, *, check_ok=True, **options):
    """Run the real loop with recording build and check callables and a landing that counts
    a file's lines instead of landing them (no Spark)."""
    import python_udfs.pipeline.watch as watch_module

    def count_lines(spark, plan, **settings):
        return {f: SimpleNamespace(messages_landed=sum(len(p.read_text().splitlines()) for p in files))
                for f, files in plan.items()}

    monkeypatch.setattr(watch_module, "land_formats", count_lines)
    folder = tmp_path / "canal"
    folder.mkdir(exist_ok=True)
    events: list[str] = []
    stop = StopFlag()

    def build() -> bool:
        events.append("build")
        return True

    def check() -> bool:
        events.append("check")
        return check_ok

    script = Script(steps(folder, stop))
    batches = watch(None, {"canal": [folder]}, build, project_dir=PROJECT_DIR, landing_schema="unused",
                    scratch_dir=tmp_path, settle=0, stop=stop, log=script, check=check,
                    **{"interval": 0, "check_idle": 0, **options})
    return batches, events, script.lines


def stop_now(stop: StopFlag):
    return lambda: setattr(stop, "requested", True)


def test_checks_run_once_idle_for_every_batch_since(tmp_path, monkeypatch):
    def steps(folder, stop):
        # the first cycle builds; a file arrives, the next cycle builds it; then idle: checks
        return [("batch 1:", lambda: drop(folder, "a.jsonl", ["{}", "{}"])),
                ("checks (idle)", stop_now(stop))]

    batches, events, lines = loop(tmp_path, monkeypatch, steps)
    assert batches == 2 and events == ["build", "build", "check"], lines
    assert "landed 2 messages" in lines[1], lines
    assert lines[-1].startswith("checks (idle): the data tests of 2 batches passed in "), lines


def test_a_failed_check_is_reported_and_not_repeated_until_a_new_batch(tmp_path, monkeypatch):
    def steps(folder, stop):
        # idle cycles pass after the failed checks (the next file comes 0.3 s later): none of
        # them runs the checks again; the next batch's do
        later = lambda: threading.Timer(0.3, drop, (folder, "a.jsonl", ["{}"])).start()  # noqa: E731
        return [("checks (idle)", later), ("checks (idle)", stop_now(stop))]

    _, events, lines = loop(tmp_path, monkeypatch, steps, check_ok=False, interval=0.02)
    assert events == ["build", "check", "build", "check"], lines
    assert "failed (dbt reported failures" in lines[1] and "checked again next time" in lines[1]


def test_a_stream_that_never_pauses_is_checked_within_the_bound(tmp_path, monkeypatch):
    """A new file after every batch: never idle, so the bound (0 s here) runs the checks."""
    def steps(folder, stop):
        return [("batch 1:", lambda: drop(folder, "a.jsonl", ["{}"])),
                ("batch 2:", lambda: drop(folder, "b.jsonl", ["{}"])),
                ("batch 3:", stop_now(stop))]

    batches, events, lines = loop(tmp_path, monkeypatch, steps, check_within=0)
    assert batches == 3
    # the stop was asked for after batch 3's line, before its checks
    assert events == ["build", "check", "build", "check", "build"], lines
    assert [line.split(":")[0] for line in lines if line.startswith("checks")] == [
        "checks (unchecked for 0 s)", "checks (unchecked for 0 s)", "checks"]


def test_the_short_gaps_of_a_steady_stream_do_not_run_the_checks(tmp_path, monkeypatch):
    """Files 0.3 s after each batch, the checks waiting for 5 s without a file: none run in
    between (they would hold the next batch behind them); the bound still applies."""
    def later(folder, name):
        return lambda: threading.Timer(0.3, drop, (folder, name, ["{}"])).start()

    def steps(folder, stop):
        return [("batch 1:", later(folder, "a.jsonl")), ("batch 2:", later(folder, "b.jsonl")),
                ("batch 3:", stop_now(stop))]

    batches, events, lines = loop(tmp_path, monkeypatch, steps, check_idle=5, interval=0.02)
    assert batches == 3 and events == ["build"] * 3, lines
    assert lines[-1] == "checks: 3 unchecked batch(es) left to the next build or watch"


def test_a_stop_leaves_the_checks_to_the_next_run_and_max_batches_does_not(tmp_path, monkeypatch):
    _, events, lines = loop(tmp_path, monkeypatch, lambda folder, stop: [("batch 1:", stop_now(stop))])
    assert events == ["build"]
    assert lines[-1] == "checks: 1 unchecked batch(es) left to the next build or watch"
    _, events, lines = loop(tmp_path, monkeypatch, lambda folder, stop: [], max_batches=1)
    assert events == ["build", "check"] and lines[-1].startswith("checks (last batch): "), lines


@pytest.mark.dbt
def test_one_run_of_the_checks_covers_every_batch_since_the_last(make_pipeline, tmp_path):
    """Two batches built without tests, then a fault slipped into the first, then idle: the
    checks find it (they read every landing after their marks, not only the last batch's), and,
    once it is repaired, pass and move their marks past both batches."""
    pipeline = make_pipeline("watchchecks", {"cdc_formats": ["canal"]}, checks="each_build")
    pipeline.write_json = True  # the test reads target/run_results.json
    pipeline.land("canal", SAMPLE)
    pipeline.build()
    marks_before = checked_marks(pipeline, "stg_canal__events", "_staging")
    assert marks_before

    folder = tmp_path / "incoming" / "canal"
    folder.mkdir(parents=True)
    drop(folder, "first.jsonl", [canal_insert(1, 1_900_000_000_001), canal_insert(2, 1_900_000_000_002)])
    stop = StopFlag()
    removed: list[int] = []

    def batch_only() -> bool:
        return pipeline.dbt("build", "--exclude-resource-type", "test", expect_success=False).success

    def checks() -> bool:
        return pipeline.dbt("build", "--resource-type", "test", expect_success=False).success

    def second_file() -> None:
        drop(folder, "second.jsonl", [canal_insert(3, 1_900_000_000_003)])

    def fault_in_the_first_batch() -> None:
        # the first batch's events removed from staging by hand once the second is built (a
        # model repairs an incomplete last batch by itself): only the test that every landed
        # message is staged, reading that batch's landings, can tell
        staged = "{s}_staging.stg_canal__events"
        first = pipeline.sql(f"select cast(min(landed_at) as string) as t from {staged} where table_id = 'store.checked'")[0]["t"]
        before = pipeline.sql(f"select count(*) as n from {staged}")[0]["n"]
        rewrite(pipeline, staged, where=f"landed_at <> timestamp'{first}'")
        removed.append(before - pipeline.sql(f"select count(*) as n from {staged}")[0]["n"])

    script = Script([("batch 1:", second_file), ("batch 2:", fault_in_the_first_batch),
                     ("checks (idle)", stop_now(stop))])
    from pyspark.sql import SparkSession

    batches = watch(SparkSession.builder.getOrCreate(), {"canal": [folder]}, batch_only,
                    project_dir=PROJECT_DIR, landing_schema=f"{pipeline.schema}_landing",
                    scratch_dir=tmp_path / "scratch", interval=0, settle=0, stop=stop, log=script,
                    check=checks, check_idle=0)
    assert batches == 2 and removed and removed[0] >= 2, (batches, removed, script.lines)
    assert "landed 2 messages" in script.lines[0] and "landed 1 messages" in script.lines[1], script.lines
    assert script.lines[2].startswith("checks (idle): the data tests of 2 batches failed"), script.lines
    # the staging test found the first batch's two messages missing: its mark stayed (the
    # passing tests kept on the same model moved theirs)
    assert results(pipeline)[STAGED]["status"] == "fail"
    assert results(pipeline)[STAGED]["failures"] == 2
    failed = checked_marks(pipeline, "stg_canal__events", "_staging")
    kept = {key for key, value in marks_before.items() if failed.get(key) == value}
    assert kept and kept != set(marks_before), (marks_before, failed)

    # repaired (a full rebuild), the next checks pass and move every mark past both batches
    pipeline.rebuild()
    assert checks()
    assert results(pipeline)[STAGED]["status"] == "pass"
    after = checked_marks(pipeline, "stg_canal__events", "_staging")
    assert after.keys() == marks_before.keys()
    assert all(after[key] != marks_before[key] for key in kept)


@pytest.mark.dbt
def test_the_suite_checks_each_scenario_once_at_its_end(make_pipeline):
    """The test pipelines build as a watch does (tests/pytest/conftest.py, `CHECKS`): with
    checks="at_end", `build()` runs no data test and the pipeline stays unchecked until
    `check()` (after the test at the latest), which runs the data tests of every batch built
    since and fails on a fault in any of them."""
    pipeline = make_pipeline("atend", {"cdc_formats": ["canal"]})
    assert pipeline.checks == "at_end"
    pipeline.land("canal", SAMPLE[:2])
    pipeline.build()
    pipeline.land("canal", SAMPLE[2:])
    result = pipeline.build()
    assert pipeline.unchecked
    assert not [r for r in result.result.results if r.node.resource_type == "test"]
    # a fault in the first batch: one of its staged events twice
    staged = "{s}_staging.stg_canal__events"
    first = pipeline.sql(f"select cast(min(landed_at) as string) as t from {staged}")[0]["t"]
    pipeline.sql(f"insert into {staged} select * from {staged} where landed_at = timestamp'{first}' limit 1")
    with pytest.raises(AssertionError, match="unique_stg_canal__events_event_id: fail"):
        pipeline.check()
    assert not pipeline.unchecked  # reported once, by the test that ran the checks
