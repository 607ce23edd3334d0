"""Compiled selects in a fresh JVM, one after the other: first (cold) and later (warm) runs.

    .venv/bin/python bench/results/2026-12-04-key-columns-once/cold_select.py \
        bench/work/runs/peer-canal/cdc_local stg_canal__events.sql [more.sql ...] [REPS] [--metrics]

Each select runs REPS times (default 2) into Spark's `noop` sink, in the order given: a
second select shows what a statement pays for warming once the JVM has run another.

`--metrics` prints Spark's code generation metrics after the runs (Janino compile time,
source and bytecode sizes): what a cold run spends compiling generated code, as against the
JVM's own JIT, which they do not include. Run A and B alternately (A B A B), each in its own
process, to compare two forms of a select cold.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

# the session settings of ab_compiled_sql.py (the embedded profile's), shared
_spec = importlib.util.spec_from_file_location(
    "ab_compiled_sql", Path(__file__).parents[1] / "2026-12-03-night-one-shuffle" / "ab_compiled_sql.py")
ab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ab)


def main() -> None:
    arguments = [a for a in sys.argv[2:] if a != "--metrics"]
    reps = int(arguments.pop()) if arguments and arguments[-1].isdigit() else 2
    spark = ab.session(sys.argv[1])
    for path in arguments:
        query = open(path, encoding="utf-8").read()
        for rep in range(reps):
            started = time.perf_counter()
            spark.sql(query).write.format("noop").mode("overwrite").save()
            print(f"{Path(path).name} rep {rep}: {time.perf_counter() - started:.1f} s", flush=True)
    if "--metrics" in sys.argv:
        metrics = spark.sparkContext._jvm.org.apache.spark.metrics.source.CodegenMetrics
        for name in ("METRIC_COMPILATION_TIME", "METRIC_SOURCE_CODE_SIZE",
                     "METRIC_GENERATED_CLASS_BYTECODE_SIZE"):
            histogram = getattr(metrics, name)()
            snapshot = histogram.getSnapshot()
            print(f"{name}: {histogram.getCount()} x mean {snapshot.getMean():.0f}"
                  f" = {snapshot.getMean() * histogram.getCount():.0f} (max {snapshot.getMax()})")


if __name__ == "__main__":
    main()
