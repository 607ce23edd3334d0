"""Per compiled model: hash exchanges, reused exchanges and table scans of its physical plan.
A table scanned more than once in one statement is work Spark may be doing twice (it does
not reuse a CTE); that is how the two changes of this folder were found.

    .venv/bin/python bench/results/2026-12-05-held-pairs/count_scans.py \
        bench/work/runs/main/cdc_local OUT_DIR      # OUT_DIR from compile_models.sh

A model calling a Python UDF (schema_changes) does not plan in this bare session.
"""
import glob
import os
import re
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "2026-12-04-late-huge-methods"))
from cpu_variants_session import session  # noqa: E402

spark = session(sys.argv[1])
for path in sorted(glob.glob(os.path.join(sys.argv[2], "compiled", "*", "models", "*", "*.sql"))):
    try:
        plan = spark.sql(open(path).read())._jdf.queryExecution().executedPlan().toString()
    except Exception as error:  # noqa: BLE001 (a model that does not plan here is reported)
        print(f"{os.path.basename(path):40s} not planned: {str(error)[:80]}")
        continue
    scans = Counter(re.findall(r"FileScan parquet spark_catalog\.(\S+?)\[", plan))
    exchanges = len(re.findall(r"Exchange (?:hashpartitioning|SinglePartition|RoundRobin|rangepartitioning)", plan))
    repeated = {table: n for table, n in scans.items() if n > 1}
    print(f"{os.path.basename(path):40s} exchanges={exchanges:2d} reused={plan.count('Reused')} "
          f"scans={sum(scans.values())} repeated={repeated}")
