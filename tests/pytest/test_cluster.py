"""The same project on a real Spark standalone cluster gives the same result as embedded Spark.

Starts a master and two workers on loopback (``scripts/spark-cluster.sh``, from the pyspark of
this virtual environment), then runs the whole pipeline twice with the same schema names: once
on the ``cluster`` target of ``profiles/profiles.yml``, in its own process with its own
warehouse and metastore (``tests/pytest/cluster_run.py``), and once on embedded Spark, the
reference, in this test worker's warm session (the same steps of ``cluster_run.py``; when it
was a cold process of its own, the file's setup took 44 s more between two CI rehearsals:
bench/results/2026-12-06-eleventh/). Each run lands the bundled samples of every enabled
format and dumps change_log, current_state, row_history, schema_changes and quarantine; the
dumps must be equal row for row. The cluster run is a ``dbt build`` (models and data tests,
on the cluster); the embedded run a ``dbt run``: the data tests write no table rows, and every
other test file runs them embedded. The Python UDFs run on the executors (pandas UDFs in
Python workers started by the executors with the venv's interpreter). The cluster is always
stopped at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import PROJECT_DIR, SUBPROCESS_JVM_OPTIONS

pytestmark = [pytest.mark.dbt, pytest.mark.slow]

SCRIPT = PROJECT_DIR / "scripts" / "spark-cluster.sh"
RUNNER = PROJECT_DIR / "tests" / "pytest" / "cluster_run.py"
TABLES = ("change_log", "current_state", "row_history", "schema_changes", "quarantine")
RUN_TIMEOUT = 2400  # seconds per pipeline run; a run takes 2-7 minutes on 2 busy cores


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def base_env(local_dir: Path) -> dict[str, str]:
    """The environment of one run: nothing inherited that points at another warehouse."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CDC_", "SPARK_", "PYSPARK_"))}
    env.update(
        {
            "CDC_LOCAL_DIR": str(local_dir),
            "CDC_LOG4J_CONFIG": str(PROJECT_DIR / "profiles" / "log4j2.properties"),
            "CDC_DRIVER_MEMORY": "1g",
            "DBT_PROFILES_DIR": str(PROJECT_DIR / "profiles"),
            # dbt's files next to the run's warehouse: test workers run side by side
            "DBT_TARGET_PATH": str(local_dir / "target"),
            "DBT_LOG_PATH": str(local_dir / "logs"),
            "SPARK_LOCAL_IP": "127.0.0.1",
            "PYSPARK_PYTHON": sys.executable,
            "PYTHONPATH": str(PROJECT_DIR),
            # short-lived JVMs: the test suite's options for them (conftest.py)
            "CDC_JVM_OPTIONS": SUBPROCESS_JVM_OPTIONS,
            "CDC_EXECUTOR_JVM_OPTIONS": SUBPROCESS_JVM_OPTIONS,
        }
    )
    return env


def run_pipeline(name: str, env: dict[str, str], work: Path) -> dict:
    out = work / f"{name}.json"
    log = work / f"{name}.log"
    with open(log, "w", encoding="utf-8") as handle:
        result = subprocess.run(
            [sys.executable, str(RUNNER), str(out)],
            cwd=PROJECT_DIR,
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            timeout=RUN_TIMEOUT,
        )
    tail = "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-40:])
    assert result.returncode == 0, (
        f"{name} run failed (exit {result.returncode}), log {log}:\n{tail}"
    )
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cluster")


@pytest.fixture(scope="module")
def embedded_run(make_pipeline):
    """The reference run, in this worker's session: interpreted expressions, as every embedded
    test run (conftest.py); the cluster run keeps generated code, so the comparison covers
    both ways of evaluating the SQL. Models only (the cluster run keeps `dbt build`)."""
    from pyspark.sql import SparkSession

    from python_udfs.pipeline.cli import project_vars

    from .cluster_run import compared_tables, executor_count, land_samples, sample_formats

    pipeline = make_pipeline("clusterref")
    pipeline.dbt("run-operation", "create_landing_tables", "--quiet")
    spark = SparkSession.builder.getOrCreate()
    landed = land_samples(spark, sample_formats({**project_vars(PROJECT_DIR), **pipeline.vars}),
                          pipeline.vars["cdc_landing_schema"], pipeline.work_dir / "scratch")
    pipeline.dbt("run")
    return {"master": spark.sparkContext.master, "executors": executor_count(spark), "landed": landed,
            "tables": compared_tables(spark, pipeline.schema), "schema": pipeline.schema, "vars": pipeline.vars}


@pytest.fixture(scope="module")
def cluster(work, request):
    """A master and two workers (1 core, 1g each) on free loopback ports; always stopped."""
    if shutil.which("java") is None:
        pytest.skip("Java is not installed: a Spark cluster needs Java 17 or 21")
    master_port = free_port()
    env = {
        **os.environ,
        "CDC_CLUSTER_DIR": str(work / "spark-cluster"),
        "SPARK_MASTER_PORT": str(master_port),
        "SPARK_MASTER_WEBUI_PORT": str(free_port()),
        "CDC_CLUSTER_WORKERS": "2",
        "SPARK_WORKER_CORES": "1",
        "SPARK_WORKER_MEMORY": "1g",
        "CDC_VENV": str(Path(sys.executable).parents[1]),
    }

    def stop() -> None:
        subprocess.run([str(SCRIPT), "stop"], env=env, timeout=180, check=False)

    request.addfinalizer(stop)  # before start: a half-started cluster is stopped too
    subprocess.run([str(SCRIPT), "start"], env=env, timeout=300, check=True)
    status = subprocess.run(
        [str(SCRIPT), "status"], env=env, capture_output=True, text=True, timeout=60
    )
    assert status.returncode == 0, status.stdout
    return {"url": f"spark://127.0.0.1:{master_port}", "dir": work / "spark-cluster"}


@pytest.fixture(scope="module")
def cluster_run(embedded_run, cluster, work):
    # embedded_run first: the cluster is up only while the cluster run needs it
    env = base_env(work / "cluster")
    env.update(
        {
            # the reference's schema names: event ids hash the landing table's name
            "CDC_SCHEMA": embedded_run["schema"],
            "CDC_RUN_VARS": json.dumps(embedded_run["vars"]),
            "CDC_TARGET": "cluster",
            "SPARK_MASTER_URL": cluster["url"],
            "CDC_WAREHOUSE_DIR": str(work / "cluster" / "warehouse"),
            "CDC_EXECUTOR_MEMORY": "1g",
            # a different partitioning than the embedded run: results must not depend on it
            "CDC_SHUFFLE_PARTITIONS": "6",
        }
    )
    return run_pipeline("cluster", env, work)


def rows(run: dict, table: str) -> list[str]:
    """Rows as canonical JSON (map keys sorted), sorted."""
    return sorted(json.dumps(json.loads(row), sort_keys=True) for row in run["tables"][table])


def test_cluster_run_used_the_cluster(cluster_run, embedded_run, cluster):
    assert embedded_run["master"].startswith("local")
    assert cluster_run["master"] == cluster["url"]
    assert cluster_run["executors"] >= 2
    # every worker launched an executor of the application (work/worker-N/app-…/…)
    for worker in sorted((cluster["dir"] / "work").iterdir()):
        apps = [p for p in worker.iterdir() if p.name.startswith("app-")]
        assert apps and any(any(app.iterdir()) for app in apps), f"no executor ran on {worker.name}"
    # both runs landed the same samples
    assert cluster_run["landed"] == embedded_run["landed"]
    assert set(cluster_run["landed"]) >= {"dataworks", "datahub_tuple"}


def test_python_udf_results_come_from_the_executors(cluster_run):
    # ddlMeta is decoded only by the Python UDF cdc_decode_ddl_meta: on a cluster it runs in
    # the executors' Python workers
    decoded = [
        json.loads(row)
        for row in cluster_run["tables"]["schema_changes"]
        if '"ddl_meta_decoded"' in row
    ]
    assert decoded and all(json.loads(r["ddl_meta_decoded"])["statement_kind"] for r in decoded)


@pytest.mark.parametrize("table", TABLES)
def test_cluster_result_equals_embedded(cluster_run, embedded_run, table):
    cluster_rows, embedded_rows = rows(cluster_run, table), rows(embedded_run, table)
    assert embedded_rows, f"{table} is empty: the comparison would prove nothing"
    only_cluster = sorted(set(cluster_rows) - set(embedded_rows))
    only_embedded = sorted(set(embedded_rows) - set(cluster_rows))
    assert cluster_rows == embedded_rows, (
        f"{table}: {len(cluster_rows)} rows on the cluster, {len(embedded_rows)} embedded\n"
        f"only on the cluster: {only_cluster[:3]}\nonly embedded: {only_embedded[:3]}"
    )
