import time, json, sys
from pyspark.sql import SparkSession
local='/tmp/w0/local'
b=SparkSession.builder.enableHiveSupport().master('local[2]')
for k,v in {"spark.sql.warehouse.dir": f"{local}/warehouse","spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={local}/metastore_db;create=true","spark.driver.extraJavaOptions": f"-Dderby.system.home={local}","spark.ui.enabled":"false"}.items(): b=b.config(k,v)
spark=b.getOrCreate(); spark.sparkContext.setLogLevel('ERROR')
jvm=spark._jvm; ss=spark._jsparkSession.sessionState()
mapper=jvm.com.fasterxml.jackson.databind.ObjectMapper()
conv=jvm.scala.jdk.javaapi.CollectionConverters
def via_catalog(schema, name):
    ident=jvm.org.apache.spark.sql.catalyst.TableIdentifier(name, jvm.scala.Option.apply(schema))
    t=ss.catalog().getTableMetadata(ident)
    return json.loads(mapper.writeValueAsString(conv.asJava(t.properties())))
def via_sql(rel):
    return {r[0]: r[1] for r in spark.sql(f'show tblproperties {rel}').collect()}
rels=[('bench_staging','stg_canal__events'),('bench','change_log'),('bench_staging','int_current_state_layers'),('bench','current_state')]
for rep in range(12):
    t=time.perf_counter()
    for s,n in rels: a=via_sql(f'{s}.{n}')
    t1=time.perf_counter()
    for s,n in rels: b2=via_catalog(s,n)
    t2=time.perf_counter()
    print(f'rep {rep}: sql {(t1-t)/len(rels)*1000:.1f} ms, catalog {(t2-t1)/len(rels)*1000:.1f} ms per relation')
for s,n in rels:
    a=via_sql(f'{s}.{n}'); c=via_catalog(s,n)
    ak={k:v for k,v in a.items() if k.startswith('cdc.')}; ck={k:v for k,v in c.items() if k.startswith('cdc.')}
    print(n, len(a), len(c), 'cdc keys equal:', ak==ck, 'extra in catalog:', sorted(set(c)-set(a))[:8], 'extra in sql:', sorted(set(a)-set(c))[:5])
