"""The five staging models' read plan queries of one build: one statement each (as built) or
all in one statement, alternating in one warm JVM; the answers are checked equal first.

    .venv/bin/python bench/results/2026-12-05-fourth-small-levers/read_plans_together_ab.py LOCAL_DIR DBT_LOG ROUNDS

DBT_LOG: the dbt log of a watch batch on that warehouse (its last five read plan queries).
"""
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench/results/2026-12-03-night-one-shuffle"))
import ab_compiled_sql  # noqa: E402

pattern = re.compile(r"select \((select cast\(max\(landed_at\) as string\) as mark from .*?)\) as mark, "
                     r"\((select count\(\*\) from .*?)\) as newer$", re.M)
found = pattern.findall(Path(sys.argv[2]).read_text(encoding="utf-8", errors="replace"))[-5:]
separate = [f"select ({mark}) as mark, ({newer}) as newer" for mark, newer in found]
together = "select " + ", ".join(f"({mark}) as mark_{i}, ({newer}) as newer_{i}" for i, (mark, newer) in enumerate(found))
spark = ab_compiled_sql.session(sys.argv[1])


def run_separate():
    return [tuple(spark.sql(q).collect()[0]) for q in separate]


def run_together():
    row = spark.sql(together).collect()[0]
    return [(row[2 * i], row[2 * i + 1]) for i in range(len(found))]


assert run_separate() == run_together()
figures = {"separate": [], "together": []}
for round_ in range(int(sys.argv[3])):
    pairs = (("separate", run_separate), ("together", run_together))
    for name, run in pairs if round_ % 2 == 0 else pairs[::-1]:
        started = time.perf_counter()
        run()
        figures[name].append(round(time.perf_counter() - started, 3))
for name, walls in figures.items():
    print(name, "median", statistics.median(walls), sorted(walls))
