"""Time one table-property write three ways in one warm session (Hive metastore on Derby).

A: AlterTableSetPropertiesCommand run directly (what the adapter does today);
B: the session catalog's alterTable with the properties merged into one raw lookup;
C: the external catalog's alterTable with the same table (skips the session catalog's checks).
Alternated A B C, 40 writes each per round, 3 rounds; prints ms per write.
"""
import sys, tempfile, time
from pyspark.sql import SparkSession

work = tempfile.mkdtemp()
spark = (SparkSession.builder.master("local[2]")
         .config("spark.ui.enabled", "false")
         .config("spark.sql.warehouse.dir", f"{work}/wh")
         .config("spark.hadoop.javax.jdo.option.ConnectionURL", f"jdbc:derby:;databaseName={work}/ms;create=true")
         .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={work}")
         .enableHiveSupport().getOrCreate())
spark.sql("create database pw")
spark.sql("create table pw.t (a string, b bigint, c map<string,string>, d timestamp) using parquet")
spark.sql("insert into pw.t values ('x', 1, map('k','v'), current_timestamp())")
jvm, session = spark._jvm, spark._jsparkSession
ident = jvm.org.apache.spark.sql.catalyst.TableIdentifier("t", jvm.scala.Option.apply("pw"))
catalog = session.sessionState().catalog()
external = catalog.externalCatalog()
# 40 memory-like properties already there, as on a home model
base = {f"cdc.passed.{i:016x}": "x" * 32 for i in range(40)}
spark.sql("alter table pw.t set tblproperties (" + ", ".join(f"'{k}'='{v}'" for k, v in base.items()) + ")")

def values(n):
    return jvm.org.apache.spark.api.python.PythonUtils.toScalaMap({"cdc.passed.0000000000000001": str(n), "cdc.version": str(n)})

def a(n):
    jvm.org.apache.spark.sql.execution.command.AlterTableSetPropertiesCommand(ident, values(n), False).run(session)

COPY = [m for m in jvm.java.lang.Class.forName("org.apache.spark.sql.catalyst.catalog.CatalogTable").getMethods()
        if m.getName() == "copy"][0]
FIELDS = [p.getName() for p in COPY.getParameters()]
print("copy parameters:", len(FIELDS), list(FIELDS), flush=True)

def merged(n):
    table = catalog.getTableRawMetadata(ident)
    args = []
    for i in range(len(FIELDS)):
        args.append(getattr(table, f"copy$default${i + 1}")())
    props_index = 11  # properties
    args[props_index] = getattr(table.properties(), "$plus$plus")(values(n))
    return table.copy(*args)

def b(n):
    catalog.alterTable(merged(n))

def c(n):
    external.alterTable(merged(n))

ways = {"A command": a, "B session catalog": b, "C external catalog": c}
for way in ways.values():
    way(0)
for r in range(3):
    for name, way in ways.items():
        s = time.perf_counter()
        for n in range(40):
            way(n + 1)
        print(f"round {r} {name}: {(time.perf_counter() - s) / 40 * 1000:.1f} ms per write", flush=True)
print(sorted(k for k in spark.sql("show tblproperties pw.t").toPandas()["key"] if not k.startswith("cdc.passed"))[:10])
