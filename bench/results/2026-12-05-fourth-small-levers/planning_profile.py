"""Plan compiled selects again and again (parse, analyze, optimize, physical plan; nothing
runs) for SECONDS in one warm JVM, for a Java Flight Recorder profile of Spark's planning:

    JVM_EXTRA="-XX:StartFlightRecording=filename=plan.jfr,settings=profile,dumponexit=true" \
    .venv/bin/python bench/results/2026-12-05-fourth-small-levers/planning_profile.py LOCAL_DIR SECONDS A.sql ...
"""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench/results/2026-12-04-late-huge-methods"))
from cpu_variants_session import session  # noqa: E402

spark = session(sys.argv[1])
queries = [Path(p).read_text(encoding="utf-8") for p in sys.argv[3:]]
for query in queries:
    spark.sql(query)._jdf.queryExecution().executedPlan()
started, planned = time.perf_counter(), 0
while time.perf_counter() - started < float(sys.argv[2]):
    for query in queries:
        spark.sql(query)._jdf.queryExecution().executedPlan()
        planned += 1
print("plans", planned, "seconds per plan", round((time.perf_counter() - started) / planned, 3))
