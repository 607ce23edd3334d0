"""The landing's per-line expressions on the 1M mixed stream's files (466 MB, 1M lines), in
one JVM, alternating: the regular expressions (574dfdf) and a trim where a line starts with whitespace or ends with a CR (now).
Each variant: the first pass (counts per split) and the second (the lines' raw_value, to
Spark's noop sink). Prints seconds per round.

    .venv/bin/python bench/results/2026-12-06-sixteenth/landing_expressions.py bench/work/streams/mixed-1000000
"""
import sys
import time
from pathlib import Path

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

PATTERN = r'^\s*\{\s*"topic"\s*:'
WS = " \\t\\n\\r\\u000B\\u000C"


def stream_lines(stream: Path):
    """The lines of the stream's first batch, read as the landing reads them (a local session)."""
    spark = (SparkSession.builder.master("local[2]").config("spark.driver.memory", "4g")
             .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "8").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    files = [str(p) for p in sorted(stream.glob("batch-0/*/*"))]
    print(len(files), "files", flush=True)
    return spark.read.option("lineSep", "\n").text(files)


def main() -> None:
    read = stream_lines(Path(sys.argv[1])).select(
        "value", F.col("_metadata.file_path").alias("file_path"), F.col("_metadata.file_block_start").alias("block_start"))
    variants = {
        "regex": (F.col("value").rlike(r"^\s*$"), F.col("value").rlike(PATTERN),
                  F.regexp_replace(F.make_valid_utf8("value"), "\r+$", "")),
        "now": ((F.col("value") == "") | (F.substring("value", 1, 1).isin(" ", "\t", "\n", "\r", "\x0b", "\x0c")
                                           & F.expr(f"trim(BOTH '{WS}' FROM value) = ''")),
                F.col("value").rlike(PATTERN),
                F.when(F.make_valid_utf8("value").endswith("\r"), F.expr("trim(TRAILING '\\r' FROM make_valid_utf8(value))"))
                .otherwise(F.make_valid_utf8("value"))),
    }
    for rnd in range(4):
        for name, (blank, record, raw) in variants.items():
            started = time.time()
            counts = read.groupBy("file_path", "block_start").agg(
                F.count(F.lit(1)).alias("lines"), F.sum(F.when(blank, 0).otherwise(1)).alias("messages"),
                F.sum(F.when(record, 1).otherwise(0)).alias("records")).collect()
            first = time.time() - started
            started = time.time()
            read.where(~blank).select(raw.alias("raw_value")).write.format("noop").mode("overwrite").save()
            second = time.time() - started
            print(rnd, name, f"first {first:.2f} s, second {second:.2f} s, messages {sum(r['messages'] for r in counts)}",
                  flush=True)


if __name__ == "__main__":
    main()
