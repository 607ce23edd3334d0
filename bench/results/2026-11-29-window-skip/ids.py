import time, shutil
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").config("spark.driver.memory","4g")
         .config("spark.ui.enabled","false").getOrCreate())
spark.range(1000000).selectExpr("id", "concat('canal_shop.orders:', cast(id as string), ':', repeat('x', 200)) as s").write.mode("overwrite").parquet("/work/exp/s28/ids/src")
def run(expr, tag):
    t=time.time()
    spark.read.parquet("/work/exp/s28/ids/src").selectExpr("id", *[expr.format(i=i) + f" as c{i}" for i in range(3)]).write.mode("overwrite").parquet("/work/exp/s28/ids/out_"+tag)
    return round(time.time()-t,2)
for rep in range(3):
    for tag, expr in [("none", "s"), ("sha256", "sha2(concat(s, '{i}'), 256)"), ("md5", "md5(concat(s, '{i}'))"),
                      ("sha256_16", "substr(sha2(concat(s, '{i}'), 256), 1, 32)"),
                      ("xx2", "concat(hex(xxhash64(s, {i})), hex(xxhash64(s, {i}, 7)))")]:
        print(rep, tag, run(expr, tag), flush=True)
import subprocess; print(subprocess.run("du -sh /work/exp/s28/ids/out_*", shell=True, capture_output=True, text=True).stdout)
