"""The staging read plan's common query (staging_held_batch_is_last) as two scalar subqueries
(today) against one aggregate over a union, on the small scenario's warehouse, warm session,
interpreted as a small batch runs; alternating rounds; answers compared."""
import time, statistics, os
from pyspark.sql import SparkSession
L = "/work/main/bench/work/runs/small/local"
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "8").config("spark.sql.adaptive.enabled", "true")
         .config("spark.sql.codegen.wholeStage", "false").config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
         .config("spark.sql.warehouse.dir", L + "/warehouse")
         .config("spark.hadoop.javax.jdo.option.ConnectionURL", f"jdbc:derby:;databaseName={L}/metastore_db;create=true")
         .config("spark.sql.session.timeZone", "UTC")
         .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={L} -XX:+UseParallelGC")
         .enableHiveSupport().getOrCreate())
cases = []
for fmt in ["canal", "dataworks", "datahub_tuple", "debezium", "shareplex"]:
    stg = f"bench_staging.stg_{fmt}__events"; land = f"cdc_landing.raw_{fmt}"
    marks = [r[0] for r in spark.sql(f"select distinct cast(landed_at as string) from {stg} order by 1 desc limit 3").collect()]
    held, prev = marks[0], marks[2]
    through = spark.sql(f"select cast(max(landed_at) as string) from {land}").collect()[0][0]
    for m in (held, prev):   # the common case (nothing newer), and a mark two batches back
        cases.append((stg, land, m, through))
def old(stg, land, m, t):
    return (f"select (select cast(max(landed_at) as string) as mark from {stg} where landed_at >= timestamp'{m}') as mark, "
            f"(select count(*) from {land} where landed_at > timestamp'{m}' and landed_at <= timestamp'{t}') as newer")
def new(stg, land, m, t):
    return (f"select cast(max(case when reads.from_landing then null else reads.landed_at end) as string) as mark, "
            f"count_if(reads.from_landing) as newer from ("
            f"select landed_at, false as from_landing from {stg} where landed_at >= timestamp'{m}' union all "
            f"select landed_at, true as from_landing from {land} where landed_at > timestamp'{m}' and landed_at <= timestamp'{t}') as reads")
for c in cases:
    a = spark.sql(old(*c)).collect()[0]; b = spark.sql(new(*c)).collect()[0]
    assert tuple(a) == tuple(b), (c, a, b)
print("answers equal on", len(cases), "cases")
res = {"old": [], "new": []}
for rnd in range(16):
    for name in (["old", "new"] if rnd % 2 == 0 else ["new", "old"]):
        f = old if name == "old" else new
        s = time.perf_counter()
        for c in cases: spark.sql(f(*c)).collect()
        res[name].append((time.perf_counter() - s) / len(cases))
    if rnd == 3: res = {"old": [], "new": []}   # the first four rounds warm the JIT
for k, v in res.items(): print(k, "median ms per query", round(1000 * statistics.median(v), 1), "rounds", len(v), [round(1000*x) for x in v])
