"""Compiled selects in order in a fresh JVM (the noop sink), with one hugeMethodLimit: wall and
JVM CPU seconds of each; the first select pays the JVM's warm-up, as a build's first model does.

    .venv/bin/python bench/results/2026-12-04-late-huge-methods/fresh_jvm.py LOCAL_DIR LIMIT A.sql [B.sql ...]

The same select named twice runs twice (its second run is warm).
"""
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cpu_variants_session import session  # noqa: E402

local_dir, limit, files = sys.argv[1], sys.argv[2], sys.argv[3:]
spark = session(local_dir)
spark.conf.set("spark.sql.codegen.hugeMethodLimit", limit)
pid = spark._jvm.java.lang.ProcessHandle.current().pid()
tick = os.sysconf("SC_CLK_TCK")


def cpu() -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick


runs = []
for path in files:
    c0, t0 = cpu(), time.perf_counter()
    spark.sql(open(path, encoding="utf-8").read()).write.format("noop").mode("overwrite").save()
    runs.append((Path(path).name, round(time.perf_counter() - t0, 1), round(cpu() - c0, 1)))
print("hugeMethodLimit", limit, "(select, wall s, CPU s):", runs, flush=True)
