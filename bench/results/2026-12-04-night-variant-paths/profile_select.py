"""A JFR CPU profile of one compiled select, warm: two runs to warm the JVM, then REPS runs
recorded (Spark's noop sink, local[2], the settings of ab_compiled_sql.py).

    .venv/bin/python bench/results/2026-12-04-night-variant-paths/profile_select.py \
        bench/work/runs/main/cdc_local stg_debezium__events.sql OUT.jfr 3
    jfr print --events jdk.ExecutionSample --stack-depth 64 OUT.jfr > OUT.txt
    python3 bench/results/2026-12-04-night-variant-paths/jfr_summary.py OUT.txt
"""
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session  # noqa: E402

local_dir, sql_path, out, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
spark = session(local_dir)
query = open(sql_path, encoding="utf-8").read()


def run() -> float:
    started = time.perf_counter()
    spark.sql(query).write.format("noop").mode("overwrite").save()
    return round(time.perf_counter() - started, 2)


print("warm-up", run(), run(), flush=True)
pid = str(spark._jvm.java.lang.ProcessHandle.current().pid())
subprocess.run(["jcmd", pid, "JFR.start", "name=select", "settings=profile", f"filename={out}"], check=True,
               capture_output=True)
print("recorded", [run() for _ in range(reps)], flush=True)
subprocess.run(["jcmd", pid, "JFR.stop", "name=select"], check=True, capture_output=True)
