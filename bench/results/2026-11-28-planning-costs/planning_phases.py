"""Where a statement's time goes before Spark runs it: analysis, optimization, physical planning.

    python planning_phases.py LOCAL_DIR REPS [--rules] a.sql [b.sql ...]

LOCAL_DIR is a warehouse's `cdc_local` (metastore and warehouse), for example a bench run's
or a `cdc-pipeline watch` run's. Each file holds one statement as dbt.log shows it; an
`insert into|overwrite table X [partition (...)]` head is cut off, so the select is timed.
The project's Python UDFs are registered as in a dbt run. For each repetition and file it
prints the seconds of analysis (`spark.sql`), optimization, physical planning, and a `noop`
write of the result (which optimizes again and runs the query). `--rules` also prints
Spark's own per-rule counters (RuleExecutor) for the last repetition of the first file.
"""
import re
import sys
import time
from pathlib import Path

from pyspark.sql import SparkSession

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from python_udfs.spark_udfs import register_udfs  # noqa: E402

args = [a for a in sys.argv[1:] if a != "--rules"]
show_rules = "--rules" in sys.argv
local, reps, files = args[0], int(args[1]), args[2:]
conf = {
    "spark.driver.memory": "4g", "spark.sql.shuffle.partitions": "8", "spark.sql.adaptive.enabled": "true",
    "spark.sql.codegen.wholeStage": "true", "spark.sql.codegen.factoryMode": "FALLBACK",
    "spark.sql.session.timeZone": "UTC", "spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false",
    "spark.sql.mapKeyDedupPolicy": "LAST_WIN", "spark.sql.warehouse.dir": f"{local}/warehouse",
    "spark.local.dir": f"{local}/tmp",
    "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={local}/metastore_db;create=true",
    "spark.driver.extraJavaOptions": f"-Dderby.system.home={local}",
}
builder = SparkSession.builder.enableHiveSupport().master("local[2]")
for key, value in conf.items():
    builder = builder.config(key, value)
spark = builder.getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
register_udfs(spark)
head = re.compile(r"^\s*insert\s+(into|overwrite)\s+table\s+\S+(\s+partition\s*\([^)]*\))?", re.I)
queries = {f: head.sub("", open(f).read()) for f in files}
rules = spark._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor
for rep in range(reps):
    for f in files:
        rules.resetMetrics()
        t0 = time.perf_counter()
        frame = spark.sql(queries[f])
        t1 = time.perf_counter()
        execution = frame._jdf.queryExecution()
        execution.optimizedPlan()
        t2 = time.perf_counter()
        execution.executedPlan()
        t3 = time.perf_counter()
        frame.write.format("noop").mode("overwrite").save()
        t4 = time.perf_counter()
        print(f"rep {rep} {Path(f).name:36s} analyze {t1 - t0:5.2f} optimize {t2 - t1:5.2f} "
              f"plan {t3 - t2:5.2f} noop write {t4 - t3:5.2f}", flush=True)
        if show_rules and f == files[0] and rep == reps - 1:
            print(rules.dumpTimeSpent(), flush=True)
