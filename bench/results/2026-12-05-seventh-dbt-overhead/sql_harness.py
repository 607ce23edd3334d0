"""Time SQL statements, warm, against a watch warehouse: harness.py LOCALDIR FILE.sql... (each file: one query)"""
import sys, time, os, statistics
from pyspark.sql import SparkSession
local = sys.argv[1]
spark = (SparkSession.builder.enableHiveSupport().master("local[2]")
         .config("spark.sql.warehouse.dir", f"{local}/warehouse")
         .config("spark.hadoop.javax.jdo.option.ConnectionURL", f"jdbc:derby:;databaseName={local}/metastore_db;create=true")
         .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={local} -XX:+UseParallelGC")
         .config("spark.sql.shuffle.partitions", "8").config("spark.sql.adaptive.enabled", "true")
         .config("spark.sql.codegen.wholeStage", "false").config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
         .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false")
         .config("spark.sql.hive.manageFilesourcePartitions", "false").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
from python_udfs.spark_udfs import register_udfs
register_udfs(spark)
reps = int(os.environ.get("REPS", "5"))
for f in sys.argv[2:]:
    sql = open(f).read()
    ts = []
    for r in range(reps):
        t = time.perf_counter(); spark.sql(sql).collect(); ts.append(time.perf_counter() - t)
    print(f"{os.path.basename(f)}: median {statistics.median(ts):.3f} s  all {[round(x, 3) for x in ts]}", flush=True)
