"""Several compiled selects, run in turn into the noop sink, round after round in one warm JVM
(one warm-up run of the first before the rounds); prints each round and the sorted times.

    .venv/bin/python bench/results/2026-12-04-evening-dropped/select_variants.py \
        bench/work/runs/main/cdc_local 3 A.sql B1.sql B2.sql ...
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session  # noqa: E402

local_dir, rounds, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
spark = session(local_dir)
queries = {f: open(f).read() for f in files}
times: dict = {f: [] for f in files}
spark.sql(queries[files[0]]).write.format("noop").mode("overwrite").save()
for round_ in range(rounds):
    for f in files:
        start = time.perf_counter()
        spark.sql(queries[f]).write.format("noop").mode("overwrite").save()
        times[f].append(round(time.perf_counter() - start, 2))
    print(round_, {Path(f).name: times[f][-1] for f in files}, flush=True)
for f in files:
    print(Path(f).name, sorted(times[f]))
