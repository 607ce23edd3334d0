"""A compiled staging select, whole (`full`) or cut after a CTE (`upto_<cte>`), to the noop sink in one process.

    CDC_LOCAL_DIR=<warehouse> [XOPTS="<extra JVM options>"] .venv/bin/python cold_and_warm.py COMPILED.sql REPS full full upto_parsed ...

The first statement of the process runs on a cold JVM; later ones on a warm one.
"""

import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from pyspark.sql import SparkSession

from python_udfs.spark_udfs import register_udfs

local = os.environ["CDC_LOCAL_DIR"]
sql_path, reps = sys.argv[1], int(sys.argv[2])
names = sys.argv[3:]
conf = {
    "spark.driver.memory": "6g",
    "spark.sql.shuffle.partitions": "8",
    "spark.sql.adaptive.enabled": "true",
    "spark.sql.session.timeZone": "UTC",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.mapKeyDedupPolicy": "LAST_WIN",
    "spark.sql.warehouse.dir": f"{local}/warehouse",
    "spark.local.dir": f"{local}/tmp",
    "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={local}/metastore_db;create=true",
    "spark.driver.extraJavaOptions": f"-Dderby.system.home={local} -XX:+UseParallelGC "
    + os.environ.get("XOPTS", ""),
}
b = SparkSession.builder.enableHiveSupport().master("local[2]")
for k, v in conf.items():
    b = b.config(k, v)
spark = b.getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
register_udfs(spark)
sql = open(sql_path).read()
ctes = re.findall(r"^(\w+) as \($", sql, flags=re.M) + [
    m for m in re.findall(r"^with (\w+) as \($", sql, flags=re.M)
]


def variant(name):
    if name == "full":
        return sql
    if name.startswith("file:"):
        return open(name[5:]).read()
    cte = name[len("upto_") :]
    order = re.findall(r"^(?:with )?(\w+) as \($", sql, flags=re.M)
    i = order.index(cte)
    if i + 1 < len(order):
        head = sql.split(f"\n{order[i + 1]} as (")[0]
    else:
        head = sql.rsplit("\nselect\n", 1)[0]
    head = "\n".join(line for line in head.splitlines() if not line.lstrip().startswith("--"))
    return head.rstrip().rstrip(",") + f"\nselect * from {cte}"


for rep in range(reps):
    for n in names:
        q = variant(n)
        t0 = time.perf_counter()
        spark.sql(q).write.format("noop").mode("overwrite").save()
        print(f"rep {rep} {n:28s} {time.perf_counter() - t0:6.2f}s", flush=True)
