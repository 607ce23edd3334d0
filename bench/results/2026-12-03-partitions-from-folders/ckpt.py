import sys, time, re
from pyspark.sql import SparkSession
local = '/tmp/w0/local'
conf = {"spark.driver.memory": "4g", "spark.sql.shuffle.partitions": "8", "spark.sql.adaptive.enabled": "true",
    "spark.sql.codegen.wholeStage": "false", "spark.sql.codegen.factoryMode": "NO_CODEGEN",
    "spark.sql.session.timeZone": "UTC", "spark.ui.enabled": "false", "spark.sql.mapKeyDedupPolicy": "LAST_WIN",
    "spark.sql.warehouse.dir": f"{local}/warehouse", "spark.local.dir": f"{local}/tmp",
    "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={local}/metastore_db;create=true",
    "spark.driver.extraJavaOptions": f"-Dderby.system.home={local} -XX:+UseParallelGC",
    "spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS", "spark.sql.hive.manageFilesourcePartitions": "false"}
b = SparkSession.builder.enableHiveSupport().master("local[2]")
for k, v in conf.items(): b = b.config(k, v)
spark = b.getOrCreate(); spark.sparkContext.setLogLevel("ERROR")
sys.path.insert(0, '/work/main'); from python_udfs.spark_udfs import register_udfs; register_udfs(spark)
stmt = open('/tmp/prof/new_changes.sql').read()
query = re.sub(r'^create table \S+ using parquet as ', '', stmt)
read = "select count(*), max(sort_key) from {t} as n left join (select table_id, row_key from {t}) as m using (table_id, row_key)"
for rep in range(6):
    t0 = time.perf_counter()
    spark.sql("drop table if exists bench_staging.ckpt_probe")
    spark.sql("create table bench_staging.ckpt_probe using parquet as " + query)
    t1 = time.perf_counter()
    spark.sql(read.format(t="bench_staging.ckpt_probe")).collect()
    t2 = time.perf_counter()
    spark.sql("drop table if exists bench_staging.ckpt_probe")
    t3 = time.perf_counter()
    df = spark.sql(query).localCheckpoint(eager=True); df.createOrReplaceTempView("ckpt_probe_view")
    t4 = time.perf_counter()
    spark.sql(read.format(t="ckpt_probe_view")).collect()
    t5 = time.perf_counter()
    spark.catalog.dropTempView("ckpt_probe_view"); df.unpersist()
    t6 = time.perf_counter()
    print(f"rep {rep}: table create {t1-t0:.2f} read {t2-t1:.2f} drop {t3-t2:.2f} | checkpoint {t4-t3:.2f} read {t5-t4:.2f} drop {t6-t5:.2f}", flush=True)
