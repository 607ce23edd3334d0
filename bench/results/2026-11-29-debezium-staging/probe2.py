"""Cost of single expressions on top of a CTE of the compiled staging SQL (noop sink).

    PYTHONPATH=. .venv/bin/python bench/results/2026-11-29-debezium-staging/probe2.py \
        <run dir> <compiled model SQL> fields bench/results/2026-11-29-debezium-staging/fields.txt 1

Each `name|select list` of the expressions file run over the CTEs up to `fields`, noop sink.
"""
import re, sys, time, json
from pyspark.sql import SparkSession
run_dir, sql_file, upto, exprs_file, reps = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
local = f"{run_dir}/cdc_local"
spark = (SparkSession.builder.master("local[2]").config("spark.driver.memory", "8g")
    .config("spark.sql.shuffle.partitions", "8").config("spark.sql.session.timeZone", "UTC")
    .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
    .config("spark.sql.mapKeyDedupPolicy", "LAST_WIN")
    .config("spark.sql.warehouse.dir", f"{local}/warehouse").config("spark.local.dir", f"{local}/tmp")
    .config("spark.hadoop.javax.jdo.option.ConnectionURL", f"jdbc:derby:;databaseName={local}/metastore_db;create=true")
    .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={local} -XX:+UseParallelGC")
    .enableHiveSupport().getOrCreate())
sql = open(sql_file).read()
# CTE prefix up to (not including) the CTE after `upto`
start = re.search(rf"^{upto} as \(", sql, re.M).start()
nxt = re.search(r"^\),\s*\n\s*\n(--[^\n]*\n)*\w+ as \(", sql[start:], re.M)
head = sql[: start + nxt.start()] + ")\n"
variants = [l.split("|", 1) for l in open(exprs_file).read().split("\n---\n") for l in [l.strip()] if l]
def run(expr):
    q = head + f"select {expr} from {upto}"
    t = time.time(); spark.sql(q).write.format("noop").mode("overwrite").save(); return time.time() - t
run(variants[-1][1])  # warm-up with the last (usually the fullest)
for r in range(reps):
    for name, expr in variants:
        print(json.dumps({"v": name, "rep": r, "s": round(run(expr), 2)}), flush=True)
