"""The inserts of one dbt invocation (the last in a dbt.log), run again warm in a session on a
copy of that warehouse: MODE `run` runs each insert's select into Spark's `noop` sink (nothing
written), `explain` plans it only; a variant named `insert` runs the insert itself; other
variants are Spark settings (KEY=VALUE;KEY=VALUE). Rounds alternate the variants; prints the
least time of each statement per variant. Inserts that read a temporary view of the run
(the state layers' new changes) are skipped.

    python select_vs_insert.py run LOG LOCAL_DIR insert spark.sql.constraintPropagation.enabled=false
"""
import re, sys, time, json
sys.path.insert(0, "/work/main")
MODE, log, local, variants = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
text = open(log, encoding="utf-8", errors="replace").read().split("Running with dbt=")[-1]
line_re = re.compile(r"^\S*\d\d:\d\d:\d\d\.\d+ \[\w+\s*\] \[[^\]]+\]: ", re.M)
stmts = []
for chunk in line_re.split(text):
    m = re.match(r"On model\.[\w.]+?\.(\w+): /\*.*?\*/\s*(.*)", chunk, re.S)
    if m and re.match(r"\s*insert", m.group(2)):
        stmts.append((m.group(1), m.group(2).strip()))
from pyspark.sql import SparkSession
b = (SparkSession.builder.master("local[2]").config("spark.driver.memory", "4g")
     .config("spark.sql.shuffle.partitions", "8").config("spark.sql.adaptive.enabled", "true")
     .config("spark.sql.codegen.wholeStage", "false").config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
     .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false")
     .config("spark.sql.mapKeyDedupPolicy", "LAST_WIN")
     .config("spark.sql.warehouse.dir", f"{local}/warehouse")
     .config("spark.hadoop.javax.jdo.option.ConnectionURL", f"jdbc:derby:;databaseName={local}/metastore_db;create=true")
     .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={local} -XX:+UseParallelGC")
     .config("spark.sql.sources.partitionOverwriteMode", "dynamic")
     .config("spark.sql.hive.manageFilesourcePartitions", "false")
     .enableHiveSupport())
spark = b.getOrCreate(); spark.sparkContext.setLogLevel("ERROR")
from python_udfs.spark_udfs import register_udfs
register_udfs(spark)
print("statements:", [n for n, _ in stmts], flush=True)
v_mode = MODE
def plan_all():
    out = {}
    for name, s in stmts:
        sel = re.sub(r"^insert (into|overwrite) table \S+(\s+partition \([^)]*\))?\s*", "", s, flags=re.S)
        t = time.perf_counter()
        if v_mode == "run": spark.sql(sel).write.format("noop").mode("overwrite").save()
        elif v_mode == "insert": spark.sql(s)
        else: spark.sql("explain " + s).collect()
        out[name] = time.perf_counter() - t
    return out
ok = []
for name, s in stmts:
    try:
        sel = re.sub(r"^insert (into|overwrite) table \S+(\s+partition \([^)]*\))?\s*", "", s, flags=re.S)
        spark.sql(sel).write.format("noop").mode("overwrite").save(); ok.append((name, s))
    except Exception as e:
        print("skip", name, str(e)[:80], flush=True)
stmts = ok
for _ in range(2): plan_all()  # warm
RE = spark._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor
results = {}
ROUNDS = 5
for rnd in range(ROUNDS):
    for v in (["base"] + variants)[rnd % (len(variants)+1):] + (["base"] + variants)[:rnd % (len(variants)+1)]:
        settings = [] if v in ("base", "insert") else [kv.split("=", 1) for kv in v.split(";")]
        v_mode = "insert" if v == "insert" else MODE
        for k, val in settings: spark.conf.set(k, val)
        RE.resetMetrics()
        r = plan_all()
        for k, _ in settings: spark.conf.unset(k)
        for n, s in r.items(): results.setdefault(v, {}).setdefault(n, []).append(s)
        if rnd == ROUNDS - 1 and v == "base": open("/tmp/exp/rules_base.txt", "w").write(RE.dumpTimeSpent())
for v, r in results.items():
    tot = sum(min(x) for x in r.values())
    print(f"{v[:80]:80} total(min) {tot:.2f}s  " + " ".join(f"{n[:14]}={min(x):.2f}" for n, x in r.items()), flush=True)
