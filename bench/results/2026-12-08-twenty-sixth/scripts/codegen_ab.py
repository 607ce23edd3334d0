"""The state inserts' read of a base layer (every column; a broadcast semi join on 8-byte
hashes of about 9,000 touched keys, as touched_layer_rows does) with generated code on (Spark's
defaults) against off (wholeStage false, factoryMode NO_CODEGEN: what cdc_fit_codegen sets for a
batch under cdc_small_batch_messages), alternating in one warm session.
Usage: codegen_ab.py ROUNDS LAYERS_PATH..."""
import sys, time, statistics
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").config("spark.driver.memory", "8g")
         .config("spark.sql.adaptive.enabled", "true").config("spark.ui.enabled", "false").getOrCreate())
rounds, paths = int(sys.argv[1]), sys.argv[2:]
ARMS = {"codegen": ("true", "FALLBACK"), "interpreted": ("false", "NO_CODEGEN")}
times = {arm: [] for arm in ARMS}
for n, p in enumerate(paths):
    spark.read.parquet(p).createOrReplaceTempView(f"layers{n}")
    # every 100th key stands for a batch's touched keys
    spark.sql(f"select distinct xxhash64(table_id, row_key) as key_hash from layers{n} where state_layer = 'base' and abs(xxhash64(row_key)) % 100 = 0").cache().createOrReplaceTempView(f"touched{n}")
    spark.table(f"touched{n}").count()
def run(arm):
    whole, factory = ARMS[arm]
    spark.conf.set("spark.sql.codegen.wholeStage", whole); spark.conf.set("spark.sql.codegen.factoryMode", factory)
    out = []
    for n, _ in enumerate(paths):
        t = time.perf_counter()
        spark.sql(f"""select /*+ broadcast(touched{n}) */ count(*), bit_xor(xxhash64(b.table_id, b.sort_key)), count(b.{'change_image' if n == 0 else 'row_image'})
            from layers{n} b left semi join touched{n} on xxhash64(b.table_id, b.row_key) = touched{n}.key_hash
            where b.state_layer = 'base'""").collect()
        out.append(round(time.perf_counter() - t, 3))
    return out
for i in range(rounds):
    for arm in (("codegen", "interpreted") if i % 2 == 0 else ("interpreted", "codegen")):
        times[arm].append(run(arm)); print(i, arm, times[arm][-1], flush=True)
for arm, v in times.items():
    print(arm, "median of rounds 1..:", [statistics.median(x[j] for x in v[1:]) for j in range(len(paths))])
