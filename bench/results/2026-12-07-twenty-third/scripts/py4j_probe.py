import time
from pyspark.sql import SparkSession
spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled","false").getOrCreate()
jvm = spark._jvm
def t(label, fn, n=200):
    fn()
    s = time.perf_counter()
    for _ in range(n): fn()
    print(f"{label:50} {1000*(time.perf_counter()-s)/n:.3f} ms")
t("jvm.org...TableIdentifier (package walk)", lambda: jvm.org.apache.spark.sql.catalyst.TableIdentifier)
t("jvm.scala.Option", lambda: jvm.scala.Option)
t("jvm.com.fasterxml.jackson.databind.ObjectMapper", lambda: jvm.com.fasterxml.jackson.databind.ObjectMapper)
t("jvm.PythonUtils (import lookup)", lambda: jvm.PythonUtils)
from py4j.java_gateway import JavaClass
gc = spark._sc._gateway._gateway_client
t("JavaClass(fqn) construct only", lambda: JavaClass("org.apache.spark.sql.catalyst.TableIdentifier", gc))
TI = jvm.org.apache.spark.sql.catalyst.TableIdentifier; Opt = jvm.scala.Option
t("cached TableIdentifier(...) call", lambda: TI("t", Opt.apply("s")))
t("walk + call", lambda: jvm.org.apache.spark.sql.catalyst.TableIdentifier("t", jvm.scala.Option.apply("s")))
t("spark.sql('select 1') (no collect)", lambda: spark.sql("select 1"), n=50)
