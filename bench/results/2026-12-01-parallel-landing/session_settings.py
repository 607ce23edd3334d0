"""Time selects of statements taken from dbt.log (noop sink) under alternating session settings, warm, in one session.

    .venv/bin/python session_settings.py LOCAL_DIR REPS VARIANTS_JSON a.sql [b.sql ...]

VARIANTS_JSON maps a name to Spark settings, e.g. {"aqe_8": {"spark.sql.adaptive.enabled": "true"}}.
An `insert into/overwrite table X [partition (...)]` head is cut off. Interpreted, as a small batch runs.
"""

import json
import re
import sys
import time
from pathlib import Path

from pyspark.sql import SparkSession

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from python_udfs.spark_udfs import register_udfs

local, reps = sys.argv[1], int(sys.argv[2])
variants = json.loads(sys.argv[3])  # {"name": {conf...}}
files = sys.argv[4:]
conf = {
    "spark.driver.memory": "4g",
    "spark.sql.shuffle.partitions": "8",
    "spark.sql.adaptive.enabled": "true",
    "spark.sql.codegen.wholeStage": "false",
    "spark.sql.codegen.factoryMode": "NO_CODEGEN",
    "spark.sql.session.timeZone": "UTC",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.mapKeyDedupPolicy": "LAST_WIN",
    "spark.sql.warehouse.dir": f"{local}/warehouse",
    "spark.local.dir": f"{local}/tmp",
    "spark.sql.sources.partitionOverwriteMode": "dynamic",
    "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={local}/metastore_db;create=true",
    "spark.driver.extraJavaOptions": f"-Dderby.system.home={local} -XX:+UseParallelGC",
}
builder = SparkSession.builder.enableHiveSupport().master("local[2]")
for k, v in conf.items():
    builder = builder.config(k, v)
spark = builder.getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
register_udfs(spark)
head = re.compile(r"^\s*insert\s+(into|overwrite)\s+table\s+\S+(\s+partition\s*\([^)]*\))?", re.I)
queries = {f: head.sub("", open(f).read()) for f in files}
tot = {}
for rep in range(reps):
    for name, settings in variants.items():
        for k, v in settings.items():
            spark.conf.set(k, v)
        row = []
        for f in files:
            t0 = time.perf_counter()
            spark.sql(queries[f]).write.format("noop").mode("overwrite").save()
            d = time.perf_counter() - t0
            row.append(d)
            if rep > 0:
                tot.setdefault(name, {}).setdefault(Path(f).stem, []).append(d)
        print(
            f"rep {rep} {name:10s} "
            + " ".join(f"{Path(f).stem[:18]}={d:.2f}" for f, d in zip(files, row))
            + f" sum={sum(row):.2f}",
            flush=True,
        )
for name, per in tot.items():
    print(name, "median sum", round(sum(sorted(v)[len(v) // 2] for v in per.values()), 2))
