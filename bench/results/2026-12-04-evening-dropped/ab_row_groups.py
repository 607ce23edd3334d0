"""A: a compiled staging select on its landing table as landed, Spark's default read splits.
B: the same landed rows copied with small Parquet row groups and read with
`spark.sql.files.minPartitionNum`, so that the read splits into more, even tasks. Both are
checked for the same rows (count and an order-free hash), then written as Parquet,
alternating in one JVM.

    .venv/bin/python bench/results/2026-12-04-evening-dropped/ab_row_groups.py \
        bench/work/runs/peer-canal/cdc_local A.sql bench_landing.raw_canal 4 16 [--reps 3]
"""
import argparse
import glob
import shutil
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("local_dir")
parser.add_argument("a")
parser.add_argument("table")
parser.add_argument("row_group_mib", type=int)
parser.add_argument("min_partitions")
parser.add_argument("--reps", type=int, default=3)
parser.add_argument("--out", default="/tmp/ab_row_groups")
args = parser.parse_args()
spark = session(args.local_dir)
hadoop = spark.sparkContext._jsc.hadoopConfiguration()
query_a = open(args.a).read()
copy = args.table + "_rg"
spark.sql(f"drop table if exists {copy}")
hadoop.setInt("parquet.block.size", args.row_group_mib * 2**20)
spark.sql(f"create table {copy} using parquet as select * from {args.table}")
hadoop.unset("parquet.block.size")
query_b = query_a.replace(args.table + "\n", copy + "\n").replace(args.table + " ", copy + " ")
location = spark.sql(f"describe formatted {copy}").where("col_name = 'Location'").first()["data_type"]
files = glob.glob(location.replace("file:", "") + "/*.parquet")
print("copy:", len(files), "files,", sum(pq.ParquetFile(f).metadata.num_row_groups for f in files), "row groups")
for name, query in (("A", query_a), ("B", query_b)):
    row = spark.sql(f"select count(*) as n, sum(cast(xxhash64(to_json(struct(t.*))) as decimal(38, 0))) as h"
                    f" from ({query}) as t").first()
    print(name, row.n, "rows, hash", row.h, flush=True)
for rep in range(args.reps):
    for name, query, partitions in (("A", query_a, None), ("B", query_b, args.min_partitions)):
        if partitions:
            spark.conf.set("spark.sql.files.minPartitionNum", partitions)
        else:
            spark.conf.unset("spark.sql.files.minPartitionNum")
        out = f"{args.out}/{name}"
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        spark.sql(query).write.mode("overwrite").parquet(out)
        tasks = len(glob.glob(out + "/*.parquet"))
        print(f"rep {rep} {name} {time.perf_counter() - start:6.2f} s, {tasks} output files", flush=True)
spark.sql(f"drop table if exists {copy}")
