"""Replay the SQL statements of some nodes of one dbt invocation (from dbt.log), timing Spark's phases."""
import re, sys, time, os, json
log, k, local = sys.argv[1], int(sys.argv[2]), sys.argv[3]
nodes = sys.argv[4].split(',')
reps = int(os.environ.get('REPS', '3'))
lines = open(log, errors='replace').read().split('\n')
starts = [i for i, l in enumerate(lines) if 'Running with dbt=' in l]
k %= len(starts)
seg = lines[starts[k]:(starts[k + 1] if k + 1 < len(starts) else None)]
node = None; buf = None; stmts = []
for l in seg:
    m = re.search(r'Began running node (\S+)', l)
    if m: node = m.group(1)
    m = re.search(r'On (\S+): (.*)', l)
    if m and 'SQL status' not in l and not l.rstrip().endswith(': Close'):
        buf = [m.group(2)]; continue
    m = re.search(r'SQL status: (\S+) in ([0-9.]+) seconds', l)
    if m:
        if buf is not None and node and any(n in node for n in nodes):
            sql = '\n'.join(buf)
            sql = re.sub(r'^/\*.*?\*/', '', sql, flags=re.S).strip()
            stmts.append((node.split('.')[-1], float(m.group(2)), sql))
        buf = None; continue
    if buf is not None:
        if re.match(r'^\S*\d\d:\d\d:\d\d\.\d+ \[', l): buf = None if 'Opening a new connection' not in l else buf
        else: buf.append(l)
from pyspark.sql import SparkSession
b = SparkSession.builder.enableHiveSupport().master('local[2]')
conf = {
 'spark.driver.memory': '4g', 'spark.sql.shuffle.partitions': os.environ.get('SP', '8'), 'spark.sql.adaptive.enabled': 'true',
 'spark.sql.codegen.wholeStage': os.environ.get('WS', 'false'), 'spark.sql.codegen.factoryMode': os.environ.get('FM', 'NO_CODEGEN'),
 'spark.sql.session.timeZone': 'UTC', 'spark.ui.enabled': 'false', 'spark.ui.showConsoleProgress': 'false',
 'spark.sql.mapKeyDedupPolicy': 'LAST_WIN', 'spark.sql.warehouse.dir': f'{local}/warehouse', 'spark.local.dir': f'{local}/tmp',
 'spark.hadoop.javax.jdo.option.ConnectionURL': f'jdbc:derby:;databaseName={local}/metastore_db;create=true',
 'spark.driver.extraJavaOptions': f'-Dderby.system.home={local} -XX:+UseParallelGC',
 'spark.sql.sources.partitionOverwriteMode': 'dynamic', 'spark.sql.parquet.outputTimestampType': 'TIMESTAMP_MICROS',
}
for kk, v in conf.items(): b = b.config(kk, v)
for kv in os.environ.get('EXTRA', '').split(';'):
    if kv: kk, v = kv.split('=', 1); b = b.config(kk, v)
spark = b.getOrCreate()
spark.sparkContext.setLogLevel('ERROR')
sys.path.insert(0, '/work/wt_bench')
from python_udfs.spark_udfs import register_udfs
register_udfs(spark)
def phases(df):
    try:
        ph = df._jdf.queryExecution().tracker().phases()
        it = ph.iterator(); out = {}
        while it.hasNext():
            t = it.next(); out[t._1()] = t._2().durationMs()
        return out
    except Exception as e:
        return str(e)
for rep in range(reps):
    print(f'--- rep {rep}')
    for n, orig, sql in stmts:
        t = time.perf_counter()
        df = spark.sql(sql)
        rows = None
        if sql.lstrip().lower().startswith(('select', 'with')):
            rows = df.collect()
        el = time.perf_counter() - t
        if el > 0.2 or rep == reps - 1:
            print(f'{el:6.2f} (log {orig:5.2f}) {n[:28]:28s} {" ".join(sql.split())[:70]} {phases(df)}', flush=True)
