"""Compiled selects in turn into the noop sink, in one warm JVM: wall seconds and the JVM's CPU
seconds (user + system, /proc) of each run; CPU moves less than wall on a shared machine.

    .venv/bin/python bench/results/2026-12-04-night-variant-paths/cpu_variants.py LOCAL_DIR ROUNDS A.sql B.sql ...
"""
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session  # noqa: E402

local_dir, rounds, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
spark = session(local_dir)
pid = spark._jvm.java.lang.ProcessHandle.current().pid()
tick = os.sysconf("SC_CLK_TCK")


def cpu() -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick


queries = {f: open(f).read() for f in files}
for f in files:  # one warm-up run each
    spark.sql(queries[f]).write.format("noop").mode("overwrite").save()
figures = {f: {"wall": [], "cpu": []} for f in files}
for round_ in range(rounds):
    for f in files:
        c0, t0 = cpu(), time.perf_counter()
        spark.sql(queries[f]).write.format("noop").mode("overwrite").save()
        figures[f]["wall"].append(round(time.perf_counter() - t0, 2))
        figures[f]["cpu"].append(round(cpu() - c0, 1))
    print(round_, {Path(f).name: (figures[f]["wall"][-1], figures[f]["cpu"][-1]) for f in files}, flush=True)
for f in files:
    print(f"{Path(f).name}: wall median {statistics.median(figures[f]['wall']):.2f} s,"
          f" CPU median {statistics.median(figures[f]['cpu']):.1f} s, CPU {sorted(figures[f]['cpu'])}")
