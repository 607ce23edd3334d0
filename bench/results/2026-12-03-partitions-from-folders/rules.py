"""Where a replayed statement's driver time goes: planning phases and optimizer rules.
    rules.py LOCAL REPS files..."""
import re, sys, time, statistics, collections
from pyspark.sql import SparkSession
sys.path.insert(0, '/work/main')
from python_udfs.spark_udfs import register_udfs
local, reps, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
conf = {
    "spark.driver.memory": "4g", "spark.sql.shuffle.partitions": "8", "spark.sql.adaptive.enabled": "true",
    "spark.sql.codegen.wholeStage": "false", "spark.sql.codegen.factoryMode": "NO_CODEGEN",
    "spark.sql.session.timeZone": "UTC", "spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false",
    "spark.sql.mapKeyDedupPolicy": "LAST_WIN", "spark.sql.warehouse.dir": f"{local}/warehouse",
    "spark.local.dir": f"{local}/tmp",
    "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={local}/metastore_db;create=true",
    "spark.driver.extraJavaOptions": f"-Dderby.system.home={local} -XX:+UseParallelGC",
    "spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS",
}
b = SparkSession.builder.enableHiveSupport().master("local[2]")
for k, v in conf.items():
    b = b.config(k, v)
spark = b.getOrCreate(); spark.sparkContext.setLogLevel("ERROR"); register_udfs(spark)
head = re.compile(r"^\s*insert\s+(into|overwrite)\s+table\s+\S+(\s+partition\s*\([^)]*\))?", re.I)
queries = {f: head.sub("", open(f).read()) for f in files}
RE = spark._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor
phases_all = collections.defaultdict(list)
for rep in range(reps):
    if rep == reps - 1:
        RE.resetMetrics()
    for f in files:
        t0 = time.perf_counter()
        df = spark.sql(queries[f])
        t1 = time.perf_counter()
        df.write.format("noop").mode("overwrite").save()
        t2 = time.perf_counter()
        qe = df._jdf.queryExecution()
        ph = qe.tracker().phases()
        it = ph.iterator()
        d = {}
        while it.hasNext():
            kv = it.next()
            d[kv._1()] = kv._2().durationMs()
        name = f.rsplit('/', 1)[-1]
        print(f"rep {rep} {name[:40]:40s} sql() {t1-t0:5.2f} write {t2-t1:5.2f} phases(df) {d}", flush=True)
print(RE.dumpTimeSpent())
