"""One complete pipeline run in this process, for comparing targets (tests/pytest/test_cluster.py).

    python tests/pytest/cluster_run.py OUT.json

Uses the dbt target the environment selects (``CDC_TARGET``: ``embedded`` or ``cluster``)
exactly as ``cdc-pipeline demo`` does: land ``samples/<format>/`` of every format enabled in
``dbt_project.yml``, ``dbt build``, then write every row of the compared tables to OUT.json.
``CDC_RUN_DBT_COMMAND=run`` runs the models only (the data tests write no table rows);
``CDC_RUN_VARS`` (JSON) are dbt vars for every dbt call (the landing schema among them);
``CDC_SCHEMA`` names the schema. test_cluster.py's embedded reference runs the same steps
(land_samples, compared_tables) in the test worker's own session.

The landing time and batch id of each landing table are then pinned to fixed values (they are
the wall-clock time and a random id of the landing, by design different in two runs and part
of ``landed_at``/``sort_key``), so two runs of the same files must produce identical rows.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
COMPARED_TABLES = ("change_log", "current_state", "row_history", "schema_changes", "quarantine")
PINNED_LANDED_AT = "2024-01-01 00:00:00"


def main(out: Path) -> int:
    from python_udfs.pipeline.cli import project_vars, run_dbt, spark_session
    from python_udfs.pipeline.landing import environment_defaults

    environment_defaults(PROJECT_DIR)
    given = json.loads(os.environ.get("CDC_RUN_VARS") or "{}")
    vars_args = ["--vars", json.dumps(given)] if given else []
    settings = {**project_vars(PROJECT_DIR), **given}
    schema = os.environ.get("CDC_SCHEMA", "cdc")
    if not run_dbt(PROJECT_DIR, ["run-operation", "create_landing_tables", "--quiet", *vars_args]):
        return 2
    spark = spark_session()
    landed = land_samples(spark, sample_formats(settings), settings.get("cdc_landing_schema", "cdc_landing"),
                          Path(os.environ["CDC_LOCAL_DIR"]) / "tmp")
    if not run_dbt(PROJECT_DIR, [os.environ.get("CDC_RUN_DBT_COMMAND", "build"), *vars_args]):
        return 1
    dump = {"master": spark.sparkContext.master, "executors": executor_count(spark), "landed": landed,
            "tables": compared_tables(spark, schema)}
    out.write_text(json.dumps(dump, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


def sample_formats(settings: dict) -> list[str]:
    """The enabled formats (`cdc_formats` of ``settings``, the project's vars) with samples."""
    return [f for f in settings.get("cdc_formats", []) if (PROJECT_DIR / "samples" / f).is_dir()]


def land_samples(spark, formats: list[str], landing_schema: str, scratch_dir: Path) -> dict[str, int]:
    """Land ``samples/<format>/`` of each format, then pin each landing table's landing time and
    batch id (module docstring); the messages landed per format."""
    from python_udfs.pipeline.landing import land_files

    landed = {}
    for format_id in formats:
        result = land_files(spark, format_id, [PROJECT_DIR / "samples" / format_id], project_dir=PROJECT_DIR,
                            landing_schema=landing_schema, scratch_dir=scratch_dir, progress=False)
        landed[format_id] = result.messages_landed
        table = f"{landing_schema}.raw_{format_id}"
        columns = [f.name for f in spark.table(table).schema.fields]
        pinned = {
            "landed_at": f"timestamp'{PINNED_LANDED_AT}'",
            "landing_batch_id": f"'pinned-{format_id}'",
        }
        select = ", ".join(pinned.get(c, c) for c in columns)
        spark.sql(f"drop table if exists {table}_pinned")
        spark.sql(f"create table {table}_pinned using parquet as select {select} from {table}")
        spark.sql(f"insert overwrite table {table} select * from {table}_pinned")
        spark.sql(f"drop table {table}_pinned")
    return landed


def compared_tables(spark, schema: str) -> dict[str, list[str]]:
    """Every row of each compared table of ``schema``, as JSON text, sorted."""
    return {name: sorted(spark.sql(f"select * from {schema}.{name}").toJSON().collect()) for name in COMPARED_TABLES}


def executor_count(spark) -> int:
    """Executors other than the driver that ran tasks in this application."""
    tracker = spark.sparkContext.statusTracker()
    infos = tracker.getExecutorInfos() if hasattr(tracker, "getExecutorInfos") else None
    if infos is not None:
        return max(len(infos) - 1, 0)
    status = spark.sparkContext._jsc.sc().getExecutorMemoryStatus()  # type: ignore[attr-defined]
    return max(status.size() - 1, 0)


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
