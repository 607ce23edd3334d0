# Measurement script of bench/results/2026-11-27-late-lambda-costs/README.md, kept as it ran
# (paths are the scratch folder and bench warehouse of that machine: /work/benchwork/runs/main
# is the warehouse `python -m bench.run --only main --keep-streams --work /work/benchwork` leaves).
import time
from pyspark.sql import SparkSession
spark = SparkSession.builder.master("local[2]").config("spark.driver.memory","4g").config("spark.ui.enabled","false").getOrCreate()
spark.range(400000).selectExpr("map_from_arrays(transform(sequence(1, 10), i -> concat('col_', cast(i as string))), transform(sequence(1, 10), i -> cast(id * i as string))) as m").write.mode("overwrite").parquet("/work/exp/s19/maps")
df = spark.read.parquet("/work/exp/s19/maps")
qs = {"array_sort": "sha2(to_json(array_sort(map_entries(m))), 256)", "sort_array": "sha2(to_json(sort_array(map_entries(m))), 256)", "none": "sha2(to_json(m), 256)"}
for r in range(4):
    for k, e in qs.items():
        t = time.perf_counter(); df.selectExpr(e + " as h").write.format("noop").mode("overwrite").save(); print(r, k, round(time.perf_counter() - t, 2), flush=True)
