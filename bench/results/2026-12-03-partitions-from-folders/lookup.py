import sys, time
sys.path.insert(0, '/tmp/prof')
from pyspark.sql import SparkSession
local = '/tmp/w0/local'
extra = dict(a.split('=', 1) for a in sys.argv[1:])
conf = {
    "spark.driver.memory": "4g", "spark.sql.shuffle.partitions": "8",
    "spark.sql.session.timeZone": "UTC", "spark.ui.enabled": "false",
    "spark.sql.warehouse.dir": f"{local}/warehouse", "spark.local.dir": f"{local}/tmp",
    "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={local}/metastore_db;create=true",
    "spark.driver.extraJavaOptions": f"-Dderby.system.home={local} -XX:+UseParallelGC",
    **extra,
}
b = SparkSession.builder.enableHiveSupport().master("local[2]")
for k, v in conf.items(): b = b.config(k, v)
spark = b.getOrCreate(); spark.sparkContext.setLogLevel("ERROR")
tables = ['bench_staging.stg_canal__events', 'bench.change_log', 'bench_staging.int_current_state_layers', 'bench.current_state', 'cdc_landing.raw_canal']
RE = spark._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor
q = "select count(*) from bench_staging.int_current_state_layers where state_layer = 'delta'"
for rep in range(6):
    t = time.perf_counter()
    for i in range(20):
        for tb in tables:
            spark.sql(f"select * from {tb} limit 0").schema
    a = time.perf_counter() - t
    t = time.perf_counter()
    for i in range(20): spark.sql(q).collect()
    c = time.perf_counter() - t
    print(f"rep {rep}: analyze 100 lookups {a:.2f} s ({a*10:.1f} ms each); 20 partition-pruned counts {c:.2f} s", flush=True)
RE.resetMetrics()
for i in range(20):
    for tb in tables: spark.sql(f"select * from {tb} limit 0").schema
    spark.sql(q).collect()
print('\n'.join(RE.dumpTimeSpent().splitlines()[:12]))
