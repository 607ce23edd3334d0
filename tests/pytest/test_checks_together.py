"""Column checks of a model or seed counted in one query (python_udfs/dbt_plugin/include/
macros/checks_together.sql): a check counted 0 passes from that answer, a check with violations
runs its own SQL and reports exactly what dbt's test reports, and the var turns it off."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import PROJECT_DIR

pytestmark = pytest.mark.dbt

SAMPLE = (PROJECT_DIR / "samples" / "canal" / "store_products.jsonl").read_text(encoding="utf-8").splitlines()


def results_of(pipeline) -> dict[str, dict]:
    """{test name: run result} of the pipeline's last dbt invocation."""
    results = json.loads((pipeline.work_dir / "target" / "run_results.json").read_text(encoding="utf-8"))
    return {r["unique_id"].split(".")[2]: r for r in results["results"] if r["unique_id"].startswith("test.")}


def code(result: dict) -> str | None:
    return (result.get("adapter_response") or {}).get("code")


@pytest.fixture(scope="module")
def built(make_pipeline):
    pipeline = make_pipeline("together", {"cdc_formats": ["canal"]}, checks="each_build")
    pipeline.write_json = True  # the tests read target/run_results.json
    pipeline.land("canal", SAMPLE)
    pipeline.build()
    return pipeline


def test_passing_column_checks_are_answered_by_one_query_per_model(built):
    results = results_of(built)
    together = {name for name, r in results.items() if code(r) == "cdc_checked_together"}
    for prefix in ("not_null_change_log_", "unique_change_log_", "accepted_values_change_log_",
                   "is_fixed_width_per_group_change_log_", "not_null_current_state_",
                   "unique_combination_of_columns_current_state_"):
        assert any(name.startswith(prefix) for name in together), (prefix, sorted(together))
    # singular and other generic tests run their own SQL
    assert code(results["assert_every_event_is_accounted_for"]) != "cdc_checked_together"
    assert not any(code(r) == "cdc_checked_together" for name, r in results.items()
                   if name.startswith("typed_values_all_converted"))
    assert all(r["status"] == "pass" and r["failures"] == 0 for r in results.values())
    # one aggregate per model holds them all
    log = (built.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8")
    combined = re.findall(r"^select count.* as c0, .* from \S+\.change_log as checked_rows$", log, flags=re.MULTILINE)
    assert len(combined) == 1, combined


def test_a_new_warehouses_seeds_load_once_and_their_checks_run_together(built):
    results = json.loads((built.work_dir / "target" / "run_results.json").read_text(encoding="utf-8"))["results"]
    seeds = {r["unique_id"].split(".")[2]: r for r in results if r["unique_id"].startswith("seed.")}
    # the on-run-start hook loaded each seed of the new warehouse; its node then finds it
    # loaded instead of loading the file a second time
    assert seeds and all(r["message"] == "SKIP seed up to date" for r in seeds.values()), seeds
    log = (built.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8")
    for seed in seeds:
        assert len(re.findall(rf"^create table \S+_seeds\.{seed} \($", log, flags=re.MULTILINE)) == 1, seed
    # a seed's column checks are counted together too (one query per seed)
    checks = {name: r for name, r in results_of(built).items()
              if name.startswith(("not_null_cdc_", "unique_cdc_", "accepted_values_cdc_",
                                  "unique_combination_of_columns_cdc_"))}
    assert checks and all(code(r) == "cdc_checked_together" and r["status"] == "pass" for r in checks.values()), (
        sorted((name, code(r)) for name, r in checks.items()))


def test_a_violated_check_runs_its_own_sql_and_fails_with_dbts_count(built):
    # rows that break the change log's checks: a null change_id and a duplicated one, an
    # operation outside the vocabulary, a sort key one character shorter than its table's
    # others (a prefix: it sorts first, so the latest change of its key stays the same for
    # the tests after this one; written into the staging table change_log shows)
    staging = "{s}_staging.stg_canal__events"
    columns = [r["col_name"] for r in built.sql(f"describe {staging}")
               if r["col_name"] and not r["col_name"].startswith("#")]
    columns = list(dict.fromkeys(columns))
    first = built.sql("select change_id from {s}.change_log order by change_id limit 1")[0]
    built.sql(
        f"insert into {staging} select "
        + ", ".join(
            "cast(null as string) as change_id" if c == "change_id"
            else "'bogus' as operation" if c == "operation" else f"`{c}`"
            for c in columns)
        + f" from {staging} where change_id = '" + first["change_id"] + "'"
    )
    built.sql(f"insert into {staging} select * from {staging} where change_id = '" + first["change_id"] + "'")
    built.sql(
        f"insert into {staging} select "
        + ", ".join(
            "concat(change_id, '-wide') as change_id" if c == "change_id"
            else "concat(event_id, '-wide') as event_id" if c == "event_id"
            else "substring(sort_key, 1, length(sort_key) - 1) as sort_key" if c == "sort_key" else f"`{c}`"
            for c in columns)
        + f" from {staging} where change_id = '" + first["change_id"] + "' limit 1"
    )
    result = built.dbt("test", "--select", "change_log", expect_success=False)
    assert not result.success
    results = results_of(built)
    not_null = next(r for name, r in results.items() if name == "not_null_change_log_change_id")
    unique = next(r for name, r in results.items() if name == "unique_change_log_change_id")
    operation = next(r for name, r in results.items() if name.startswith("accepted_values_change_log_operation"))
    width = next(r for name, r in results.items() if name.startswith("is_fixed_width_per_group_change_log_sort_key"))
    for failed in (not_null, unique, operation, width):
        assert failed["status"] == "fail" and code(failed) != "cdc_checked_together", failed
    # the test's own counts: null rows; duplicated values; distinct values outside the
    # vocabulary; tables whose sort keys differ in width
    assert (not_null["failures"], unique["failures"], operation["failures"], width["failures"]) == (1, 1, 1, 1)
    # the other checks of the model still pass from the one query
    assert any(code(r) == "cdc_checked_together" and r["status"] == "pass" for r in results.values())


def test_the_var_runs_each_check_on_its_own(built):
    built.extra_vars["cdc_checks_together"] = False
    try:
        built.dbt("test", "--select", "current_state")
    finally:
        del built.extra_vars["cdc_checks_together"]
    results = results_of(built)
    assert results and not any(code(r) == "cdc_checked_together" for r in results.values())
