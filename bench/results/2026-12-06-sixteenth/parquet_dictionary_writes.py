"""Write a stored table of the 1M mixed benchmark's warehouse again as Parquet, three rounds
of four variants: Parquet's defaults (`on`), no dictionary (`off`), a 64 KiB dictionary limit
(`page64k`), no dictionary but for the images' keys (`off_keys_on`). Prints seconds and MiB.

    .venv/bin/python bench/results/2026-12-06-sixteenth/parquet_dictionary_writes.py int_row_history_layers
"""
import os
import shutil
import sys
import time
from pathlib import Path

from pyspark.sql import SparkSession

wh = str(Path(__file__).parents[2] / "work/runs/main/cdc_local/warehouse/bench_staging.db") + "/"
spark = (SparkSession.builder.master("local[2]").config("spark.driver.memory", "6g")
         .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "8").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
table = sys.argv[1]
df = spark.read.parquet(wh + table).cache()
df.count()
cols = [f.name for f in df.schema.fields]
print(table, df.count(), cols)
map_cols = [f.name for f in df.schema.fields if f.dataType.typeName() == "map"]
variants = {
    "on": {},
    "off": {"parquet.enable.dictionary": "false"},
    "page64k": {"parquet.dictionary.page.size": "65536"},
    "off_keys_on": {"parquet.enable.dictionary": "false", **{f"parquet.enable.dictionary#{c}.key_value.key": "true" for c in map_cols}},
}
print("maps", map_cols)
for rnd in range(3):
    for name, opts in variants.items():
        out = f"/tmp/parquet-dictionary-{name}"
        shutil.rmtree(out, ignore_errors=True)
        w = df.write.mode("overwrite")
        for k, v in opts.items():
            w = w.option(k, v)
        started = time.time()
        w.parquet(out)
        el = time.time() - started
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
        print(rnd, name, round(el, 2), "s", round(size / 2**20, 1), "MiB", flush=True)
