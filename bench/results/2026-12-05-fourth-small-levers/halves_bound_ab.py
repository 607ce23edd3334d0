"""int_update_halves_paired's incremental select with and without a lower bound on landed_at
(the least landing time of any half in a touched group, asked first), paired in one warm JVM.

    .venv/bin/python bench/results/2026-12-05-fourth-small-levers/halves_bound_ab.py ROUNDS

Takes the 1% increment's insert from the 1M run's dbt log (bench/work/runs/main/logs/dbt.log)
and runs it as a select into the noop sink: A as built, B with the bound query first and the
bound on the halves and on the prior pairs. Checks first that both give the same re-paired
updates (the prior pairs left out of neither) and the same final rows.
"""
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench/results/2026-12-03-night-one-shuffle"))
import ab_compiled_sql  # noqa: E402

log = (ROOT / "bench/work/runs/main/logs/dbt.log").read_text(encoding="utf-8", errors="replace")
start = log.rfind("insert into table bench_staging.int_update_halves_paired")
insert = log[start:log.find("SQL status", start)]
query = insert[insert.index("from (") + len("from ("):insert.rfind(") as cdc_incremental_rows")]
halves = "    where event_class = 'update_half'\n),"
prior = "from bench_staging.int_update_halves_paired as existing\n"
assert query.count(halves) == 1 and query.count(prior) == 1
bounded = query.replace(halves, "    where event_class = 'update_half' and landed_at >= timestamp'@BOUND@'\n),").replace(
    prior, "from (select * from bench_staging.int_update_halves_paired where landed_at >= timestamp'@BOUND@') as existing\n")
head = query[query.index("with  __dbt__cte__int_events_unioned"):query.index("-- An inner join on touched_groups")]
bound_query = head.rstrip().rstrip(",") + """
select cast(min(halves.landed_at) as string) as bound
from halves
inner join touched_groups
    on halves.source_format = touched_groups.source_format
    and halves.table_id = touched_groups.table_id
    and halves.pairing_key = touched_groups.pairing_key
"""
no_prior = "(select * from bench_staging.int_update_halves_paired where false) as existing\n"

spark = ab_compiled_sql.session(str(ROOT / "bench/work/runs/main/cdc_local"))


def digest(sql: str):
    return spark.sql(f"select count(*) as n, sum(cast(xxhash64(to_json(struct(t.*))) % 1000000007 as decimal(38, 0))) as h"
                     f" from ({sql}) as t").collect()[0]


bound = spark.sql(bound_query).collect()[0][0]
print("bound", bound)
print("re-paired A", digest(query.replace(prior, no_prior)),
      "B", digest(bounded.replace("@BOUND@", bound).replace(
          f"(select * from bench_staging.int_update_halves_paired where landed_at >= timestamp'{bound}') as existing\n", no_prior)))
print("final A", digest(query), "B", digest(bounded.replace("@BOUND@", bound)))


def run_a():
    spark.sql(query).write.format("noop").mode("overwrite").save()


def run_b():
    spark.sql(bounded.replace("@BOUND@", spark.sql(bound_query).collect()[0][0])).write.format("noop").mode("overwrite").save()


figures = {"A": [], "B": []}
for round_ in range(int(sys.argv[1])):
    for name, run in ((("A", run_a), ("B", run_b)) if round_ % 2 == 0 else (("B", run_b), ("A", run_a))):
        started = time.perf_counter()
        run()
        figures[name].append(round(time.perf_counter() - started, 2))
    print(round_, figures["A"][-1], figures["B"][-1], flush=True)
for name, walls in figures.items():
    print(name, "wall median", statistics.median(walls), sorted(walls))
