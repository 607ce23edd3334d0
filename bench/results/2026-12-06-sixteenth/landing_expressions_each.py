"""Each per-line expression of the landing alone, on the 1M mixed stream's files, in one JVM,
three rounds: the sum of a flag over every line (1M lines, 466 MB).

    .venv/bin/python bench/results/2026-12-06-sixteenth/landing_expressions_each.py bench/work/streams/mixed-1000000
"""
import sys
import time
from pathlib import Path

from pyspark.sql import functions as F

sys.path.insert(0, str(Path(__file__).parent))
from landing_expressions import PATTERN, WS, stream_lines  # noqa: E402

read = stream_lines(Path(sys.argv[1]))
v = F.col("value")
first = F.substring(v, 1, 1)
exprs = {
    "none": F.lit(True),
    "blank_regex": v.rlike(r"^\s*$"),
    "blank_trim": F.expr(f"trim(BOTH '{WS}' FROM value) = ''"),
    "blank_guard": (v == "") | (first.isin(" ", "\t", "\n", "\r", "\x0b", "\x0c") & F.expr(f"trim(BOTH '{WS}' FROM value) = ''")),
    "record_regex": v.rlike(PATTERN),
    "record_instr": (F.instr(v, '"topic"') > 0) & v.rlike(PATTERN),
    "record_contains": v.contains('"topic"') & v.rlike(PATTERN),
    "cr_regex": F.length(F.regexp_replace(F.make_valid_utf8("value"), "\r+$", "")) > 0,
    "cr_trim": F.length(F.when(F.make_valid_utf8("value").endswith("\r"), F.expr("trim(TRAILING '\\r' FROM make_valid_utf8(value))")).otherwise(F.make_valid_utf8("value"))) > 0,
    "valid_only": F.length(F.make_valid_utf8("value")) > 0,
}
for rnd in range(3):
    for name, e in exprs.items():
        t = time.time()
        n = read.select(F.sum(F.when(e, 1).otherwise(0)).alias("n")).collect()[0]["n"]
        print(rnd, f"{name:16s} {time.time() - t:6.2f} s  {n}", flush=True)
