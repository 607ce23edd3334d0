"""Compiled selects in turn into the noop sink, in one warm JVM: wall and JVM CPU seconds per run.
As ../2026-12-04-night-variant-paths/cpu_variants.py, plus two knobs used here:

    .venv/bin/python bench/results/2026-12-04-late-huge-methods/cpu_variants.py LOCAL_DIR ROUNDS \
        A.sql A.sql@spark.sql.codegen.hugeMethodLimit=8000 ...

- `FILE@key=value[@key=value]` runs FILE with those session settings (the run before it is
  reset to Spark's default hugeMethodLimit, 65535);
- `JVM_EXTRA` (environment) adds driver JVM options, e.g. `-XX:-DontCompileHugeMethods`.
"""
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cpu_variants_session import session  # noqa: E402

local_dir, rounds, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
spark = session(local_dir)
pid = spark._jvm.java.lang.ProcessHandle.current().pid()
tick = os.sysconf("SC_CLK_TCK")


def cpu() -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick


def run(variant: str) -> None:
    spark.conf.set("spark.sql.codegen.hugeMethodLimit", "65535")
    for setting in variant.split("@")[1:]:
        key, value = setting.split("=", 1)
        spark.conf.set(key, value)
    spark.sql(queries[variant]).write.format("noop").mode("overwrite").save()


queries = {f: open(f.split("@")[0]).read() for f in files}
for f in files:  # one warm-up run each
    run(f)
figures = {f: {"wall": [], "cpu": []} for f in files}
for round_ in range(rounds):
    for f in files:
        c0, t0 = cpu(), time.perf_counter()
        run(f)
        figures[f]["wall"].append(round(time.perf_counter() - t0, 2))
        figures[f]["cpu"].append(round(cpu() - c0, 1))
    print(round_, {Path(f).name: (figures[f]["wall"][-1], figures[f]["cpu"][-1]) for f in files}, flush=True)
for f in files:
    print(f"{Path(f).name}: wall median {statistics.median(figures[f]['wall']):.2f} s,"
          f" CPU median {statistics.median(figures[f]['cpu']):.1f} s, CPU {sorted(figures[f]['cpu'])}")
