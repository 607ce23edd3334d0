"""A/B of two compiled selects written as Parquet (as a staging model writes), alternating in
one JVM on a benchmark's warehouse; prints each write's time and size, then the largest
columns of each output (compressed MiB, from the Parquet footers).

    .venv/bin/python bench/results/2026-12-04-evening-dropped/ab_write.py \
        bench/work/runs/peer-canal/cdc_local A.sql B.sql [--reps 3] [--out /tmp/ab_write]
"""
import argparse
import glob
import os
import shutil
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session  # noqa: E402  (the embedded profile's settings)


def column_sizes(path: str) -> dict:
    totals: dict = {}
    for file in glob.glob(path + "/*.parquet"):
        meta = pq.ParquetFile(file).metadata
        for group in range(meta.num_row_groups):
            for index in range(meta.row_group(group).num_columns):
                column = meta.row_group(group).column(index)
                name = column.path_in_schema.split(".")[0]
                totals[name] = totals.get(name, 0) + column.total_compressed_size
    return totals


parser = argparse.ArgumentParser()
parser.add_argument("local_dir")
parser.add_argument("a")
parser.add_argument("b")
parser.add_argument("--reps", type=int, default=3)
parser.add_argument("--out", default="/tmp/ab_write")
args = parser.parse_args()
spark = session(args.local_dir)
queries = {"A": open(args.a).read(), "B": open(args.b).read()}
for rep in range(args.reps):
    for name, query in queries.items():
        out = f"{args.out}/{name}"
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        spark.sql(query).write.mode("overwrite").parquet(out)
        size = sum(os.path.getsize(p) for p in glob.glob(out + "/*.parquet")) / 2**20
        print(f"rep {rep} {name} {time.perf_counter() - start:6.2f} s {size:7.1f} MiB", flush=True)
for name in queries:
    sizes = sorted(column_sizes(f"{args.out}/{name}").items(), key=lambda kv: -kv[1])[:12]
    print(name, ", ".join(f"{k} {v / 2**20:.1f}" for k, v in sizes))
