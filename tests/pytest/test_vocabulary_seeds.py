"""The vocabularies in seeds/ are data a user edits, and the project loads them itself.

A plain `dbt run` on a new warehouse loads every seed (on-run-start hook cdc_ensure_seeds, no
`dbt seed` first), with every value exactly as in its CSV. A mapping added to a CSV takes
effect on the next build: the seed is reloaded and the models that read it run again. A
build with nothing new leaves the seeds and their readers alone.
"""

from __future__ import annotations

import csv
import json
import shutil

import pytest

from .conftest import PROJECT_DIR, Pipeline

pytestmark = pytest.mark.dbt

SEEDS = ["cdc_operation_codes", "cdc_type_codes", "cdc_quarantine_reasons"]


class ProjectCopy(Pipeline):
    """A Pipeline whose dbt runs a copy of the project, so a test can edit its seeds."""

    def __init__(self, name, work_dir, extra_vars=None):
        super().__init__(name, work_dir, extra_vars)
        self.project_dir = work_dir / "project"
        self.project_dir.mkdir()
        shutil.copy(PROJECT_DIR / "dbt_project.yml", self.project_dir)
        for folder in ["models", "macros", "seeds", "tests/data_tests"]:
            shutil.copytree(PROJECT_DIR / folder, self.project_dir / folder)


def canal(type_: str, id_: int, es: int) -> str:
    return json.dumps({
        "data": [{"id": str(id_), "name": f"item {id_}"}], "database": "store", "es": es, "id": es,
        "isDdl": False, "mysqlType": {"id": "int(11)", "name": "varchar(64)"}, "old": None,
        "pkNames": ["id"], "sql": "", "sqlType": {"id": 4, "name": 12}, "table": "products",
        "ts": es, "type": type_,
    })


def csv_rows(path) -> list[tuple]:
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    return sorted(tuple(value or None for value in row) for row in rows[1:] if row)


def messages(result) -> dict[str, str]:
    return {r.node.name: str(r.message) for r in result.result.results}


@pytest.fixture(scope="module")
def project(spark_home, tmp_path_factory):
    work = tmp_path_factory.mktemp("vocab")
    return ProjectCopy(f"vocab_{work.name[-6:]}", work, {"cdc_formats": ["canal"]})


def test_a_plain_run_loads_every_seed_exactly(project):
    # a value Spark would substitute if it reached the SQL text unescaped
    with open(project.project_dir / "seeds" / "cdc_quarantine_reasons.csv", "a", encoding="utf-8") as handle:
        handle.write("dollar_probe,all,${env:HOME} and ${spark.app.name} stay text\n")
    project.land("canal", [canal("INSERT", 1, 1_700_000_000_000), canal("UPSERT", 2, 1_700_000_000_001)])
    project.dbt("run")
    for seed in SEEDS:
        with open(project.project_dir / "seeds" / f"{seed}.csv", newline="", encoding="utf-8") as handle:
            columns = next(csv.reader(handle))
        loaded = project.sql(f"select * from {{s}}_seeds.{seed}")
        assert sorted(tuple(row[column] for column in columns) for row in loaded) == csv_rows(
            project.project_dir / "seeds" / f"{seed}.csv"
        ), seed
    # a seed only a disabled format reads is not loaded (cdc_source_systems: Datastream's)
    assert project.sql("show tables in {s}_seeds like 'cdc_source_systems'") == []
    # quotes survive as data (the legacy_layout meaning holds some)
    meaning = project.sql("select meaning from {s}_seeds.cdc_quarantine_reasons where reason_code = 'legacy_layout'")
    assert "var('cdc_canal_legacy_layout')" in meaning[0]["meaning"]
    probe = project.sql("select meaning from {s}_seeds.cdc_quarantine_reasons where reason_code = 'dollar_probe'")
    assert probe == [{"meaning": "${env:HOME} and ${spark.app.name} stay text"}]
    # a code the seed does not list is quarantined, with the seed's meaning at hand
    quarantined = project.sql("select reason_code, vendor_operation from {s}.quarantine")
    assert quarantined == [{"reason_code": "unknown_operation", "vendor_operation": "UPSERT"}]
    assert project.sql("select operation from {s}.change_log") == [{"operation": "insert"}]


def test_a_mapping_added_to_a_csv_takes_effect_and_nothing_new_skips(project):
    with open(project.project_dir / "seeds" / "cdc_operation_codes.csv", "a", encoding="utf-8") as handle:
        handle.write("canal,UPSERT,change,insert\n")
    project.land("canal", [canal("UPSERT", 3, 1_700_000_000_002)])
    first = messages(project.build())
    # (the on-run-start hook reloaded the changed file, so the seed node finds it up to date)
    assert project.sql(
        "select operation from {s}_seeds.cdc_operation_codes where source_format = 'canal' and vendor_code = 'UPSERT'"
    ) == [{"operation": "insert"}]
    assert first["stg_canal__events"] != "SKIP nothing new", first
    changes = project.sql("select row_key, operation from {s}.change_log order by row_key")
    assert changes == [{"row_key": "1", "operation": "insert"}, {"row_key": "3", "operation": "insert"}]
    # the message quarantined before the mapping stays there until it is requeued
    assert [row["vendor_operation"] for row in project.sql("select vendor_operation from {s}.quarantine")] == ["UPSERT"]

    second = messages(project.build())
    for seed in SEEDS:
        assert second[seed] == "SKIP seed up to date", second
    assert second["stg_canal__events"] == "SKIP nothing new", second

    # `dbt seed --full-refresh` reloads every seed through the seed materialization itself
    reloaded = messages(project.dbt("seed", "--full-refresh"))
    for seed in SEEDS:
        assert reloaded[seed].startswith("INSERT"), reloaded
    loaded = project.sql("select * from {s}_seeds.cdc_operation_codes")
    assert sorted(tuple(row[c] for c in ("source_format", "vendor_code", "event_class", "operation")) for row in loaded) == (
        csv_rows(project.project_dir / "seeds" / "cdc_operation_codes.csv")
    )


def test_a_csv_line_that_breaks_a_seeds_check_fails_it_with_dbts_count(project):
    path = project.project_dir / "seeds" / "cdc_operation_codes.csv"
    original = path.read_text(encoding="utf-8")
    # a second meaning for a code the CSV lists already, and a line without its format
    path.write_text(original + "canal,INSERT,change,delete\n,PURGE,change,delete\n", encoding="utf-8")
    try:
        result = project.dbt("build", "--select", "cdc_operation_codes", expect_success=False)
    finally:
        path.write_text(original, encoding="utf-8")
    assert not result.success
    outcomes = {r.node.name: r for r in result.result.results}
    unique = outcomes["unique_combination_of_columns_cdc_operation_codes_source_format__vendor_code"]
    not_null = outcomes["not_null_cdc_operation_codes_source_format"]
    # each runs its own SQL after the seed's combined count found violations: dbt's own count
    for failed in (unique, not_null):
        assert str(failed.status) == "fail" and failed.failures == 1, failed
        assert (failed.adapter_response or {}).get("code") != "cdc_checked_together", failed
    assert str(outcomes["not_null_cdc_operation_codes_vendor_code"].status) == "pass"
    # the original file loads again on the next run
    project.dbt("seed")
    assert project.sql("select count(*) as n from {s}_seeds.cdc_operation_codes where vendor_code = 'PURGE'") == [
        {"n": 0}]
