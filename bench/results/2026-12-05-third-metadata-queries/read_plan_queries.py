"""The staging read plan's metadata queries before (the greatest landed_at, then three counts)
and after (one statement filtered on the held mark), warm, alternating, on a benchmark
warehouse whose last increment is complete (so its greatest landed_at is the held mark):

    .venv/bin/python bench/results/2026-12-05-third-metadata-queries/read_plan_queries.py \
        bench/work/runs/main/cdc_local
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session  # noqa: E402

spark = session(sys.argv[1])
for format_id in ("canal", "datahub_tuple", "debezium"):
    staging, landing = f"bench_staging.stg_{format_id}__events", f"bench_landing.raw_{format_id}"
    held = spark.sql(f"select cast(max(landed_at) as string) from {staging}").collect()[0][0]
    mark = f"timestamp'{held}'"
    before = [
        f"select cast(max(landed_at) as string) as mark from {staging}",
        f"select (select count(*) from {landing} where landed_at = {mark}) as landed, "
        f"(select count(*) from {staging} where landed_at = {mark} and row_index = 0) as staged, "
        f"(select count(*) from {landing} where landed_at > {mark} and landed_at <= {mark}) as newer",
    ]
    after = (f"select (select cast(max(landed_at) as string) as mark from {staging} where landed_at >= {mark}) as mark, "
             f"(select count(*) from {landing} where landed_at > {mark} and landed_at <= {mark}) as newer")
    times = []
    for _ in range(6):
        started = time.perf_counter()
        answers = [spark.sql(query).collect() for query in before]
        middle = time.perf_counter()
        answer = spark.sql(after).collect()
        times.append((middle - started, time.perf_counter() - middle))
    print(format_id, "before:", answers, "after:", answer)
    print(format_id, "before", [round(t[0], 3) for t in times], "after", [round(t[1], 3) for t in times], flush=True)
