import time, statistics
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled","false")
         .config("spark.sql.shuffle.partitions","8").config("spark.sql.adaptive.enabled","true")
         .config("spark.sql.codegen.wholeStage","false").config("spark.sql.codegen.factoryMode","NO_CODEGEN")
         .config("spark.driver.extraJavaOptions","-XX:+UseParallelGC").getOrCreate())
spark.range(8000).selectExpr("id", "timestamp_seconds(id) as landed_at", "cast(id as string) as v").write.mode("overwrite").parquet("/tmp/r23/probe_t")
spark.read.parquet("/tmp/r23/probe_t").createOrReplaceTempView("t")
qs = {
 "count": "select count(*) from t where landed_at > timestamp'1970-01-01 01:00:00'",
 "two scalar subqueries": "select (select max(landed_at) from t where landed_at >= timestamp'1970-01-01 02:00:00') as mark, (select count(*) from t where landed_at > timestamp'1970-01-01 01:00:00' and landed_at <= timestamp'1970-01-01 02:10:00') as newer",
 "no shuffle (limit)": "select landed_at from t where landed_at > timestamp'1970-01-01 02:00:00' limit 1",
}
def run(q, n):
    ts=[]
    for _ in range(n):
        s=time.perf_counter(); spark.sql(q).collect(); ts.append(time.perf_counter()-s)
    return statistics.median(ts)
for aqe in ["true","false","true","false"]:
    spark.conf.set("spark.sql.adaptive.enabled", aqe)
    for name,q in qs.items():
        run(q, 30)
    print("AQE", aqe, {name: round(1000*run(q, 60),1) for name,q in qs.items()})
