"""Time each step of landing a 1,000-message batch (5 formats, 4 threads) in a warm session: each
function of landing.py wrapped with a timer (sums over the five formats, seconds/calls)."""
import os, sys, time, threading, shutil, json
from pathlib import Path
from collections import defaultdict
sys.path.insert(0, "/work/main")
from python_udfs.pipeline import cli, landing
from pyspark.sql import DataFrameWriter

V = open("/tmp/r22/vars.json").read() if os.path.exists("/tmp/r22/vars.json") else open("/tmp/r21/vars.json").read()
proj = Path("/work/main")
assert cli.run_dbt(proj, ["run-operation", "create_landing_tables", "--quiet", "--vars", V])
spark = cli.spark_session()
times = defaultdict(list)
def wrap(mod, name):
    f = getattr(mod, name)
    def g(*a, **k):
        t = time.perf_counter()
        try: return f(*a, **k)
        finally: times[name].append(time.perf_counter() - t)
    setattr(mod, name, g)
for n in ["lineage_seen", "_is_blob", "_text_lines", "_blob_lines", "record_committed_batch", "compact_quietly", "message_files", "_land_sources", "land_files", "_kafka_records_unwrapped"]:
    wrap(landing, n)
orig_insert = DataFrameWriter.insertInto
def ins(self, *a, **k):
    t = time.perf_counter()
    try: return orig_insert(self, *a, **k)
    finally: times["insertInto"].append(time.perf_counter() - t)
DataFrameWriter.insertInto = ins
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
src = Path("/tmp/r21/stream/batch-43")
for it in range(int(sys.argv[1])):
    inbox = Path(f"/tmp/r22/inbox-{it}")
    shutil.rmtree(inbox, ignore_errors=True)
    for f in formats:
        (inbox / f).mkdir(parents=True)
        for p in (src / f).rglob("*.jsonl"):
            shutil.copy(p, inbox / f / f"it{it}-{p.parent.name}-{p.name}")
    times.clear()
    t = time.perf_counter()
    res = landing.land_formats(spark, {f: [inbox / f] for f in formats}, project_dir=proj, landing_schema="bench_landing" if False else json.loads(V).get("cdc_landing_schema", "cdc_landing"), scratch_dir=Path("/tmp/r22/scratch"), progress=False)
    total = time.perf_counter() - t
    print(f"iter {it}: {total:.2f} s, landed {sum(r.messages_landed for r in res.values())}; " + ", ".join(f"{k} {sum(v):.2f}/{len(v)}" for k, v in sorted(times.items())), flush=True)
