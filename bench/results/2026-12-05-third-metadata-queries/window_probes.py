"""The four `limit 1` probes of a 1% increment's read window (int_rekeyed_changes, quarantine,
int_update_halves_paired, schema_changes) against one `select distinct event_class` of the
same window, warm, alternating, on a benchmark warehouse:

    .venv/bin/python bench/results/2026-12-05-third-metadata-queries/window_probes.py \
        bench/work/runs/main/cdc_local

The window: each format's last batch (its greatest landed_at), as the increment reads it.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session  # noqa: E402

spark = session(sys.argv[1])
formats = ["canal", "datahub_tuple", "dataworks", "debezium", "shareplex"]
marks = {f: spark.sql(f"select cast(max(landed_at) as string) from bench_staging.stg_{f}__events").collect()[0][0]
         for f in formats}


def window(classes):
    where = "true" if classes is None else "staged.event_class in (" + ", ".join(f"'{c}'" for c in classes) + ")"
    return " union all ".join(
        f"select staged.* from bench_staging.stg_{f}__events as staged where {where} "
        f"and staged.landed_at >= timestamp'{marks[f]}'" for f in formats)


probes = [["invalid"], ["invalid"], ["update_half"], ["schema_change", "truncate"]]
old = [f"select 1 as found from ({window(c)}) as window_events limit 1" for c in probes]
new = f"select distinct window_events.event_class from ({window(None)}) as window_events"
print("classes in the window:", sorted(r[0] for r in spark.sql(new).collect()), flush=True)
for rep in range(6):
    started = time.perf_counter()
    found = [len(spark.sql(q).collect()) for q in old]
    middle = time.perf_counter()
    spark.sql(new).collect()
    print(f"rep {rep}: four probes {middle - started:.3f} s {found}, one distinct {time.perf_counter() - middle:.3f} s",
          flush=True)
