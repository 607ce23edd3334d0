"""Time the landing's steps in a warm session: ROOT from prep.py, batches 1..N landed in turn."""
import os, sys, time, functools, collections, json
from pathlib import Path
root = Path(sys.argv[1]); n = int(sys.argv[2]); threads = int(sys.argv[3])
os.environ.update(CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench", DBT_PROFILES_DIR="/work/main/profiles")
sys.path.insert(0, "/work/main")
from python_udfs.pipeline import landing, cli, compaction
from python_udfs.pipeline import table_properties as tp
project = Path("/work/main")
landing.environment_defaults(project)
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
cli.run_dbt(project, ["run-operation", "create_landing_tables", "--quiet", "--vars", json.dumps({"cdc_formats": formats})])
spark = cli.spark_session()
times = collections.defaultdict(float)
def timed(mod, name):
    f = getattr(mod, name)
    @functools.wraps(f)
    def w(*a, **k):
        t = time.perf_counter()
        try: return f(*a, **k)
        finally: times[name] += time.perf_counter() - t
    setattr(mod, name, w)
if os.environ.get("PYREAD"):
    landing._is_blob = lambda spark, s, f: s.local
for name in ["lineage_seen", "_text_lines", "record_committed_batch", "compact_quietly", "committed_through", "_kafka_records_unwrapped", "message_files", "_is_blob"]:
    timed(landing, name)
from pyspark.sql import DataFrameWriter
orig = DataFrameWriter.insertInto
def ins(self, *a, **k):
    t = time.perf_counter()
    try: return orig(self, *a, **k)
    finally: times["insertInto"] += time.perf_counter() - t
DataFrameWriter.insertInto = ins
for i in range(1, n + 1):
    times.clear()
    t = time.perf_counter()
    plan = {f: [root / "stream" / f"batch-{i}" / f] for f in formats}
    res = landing.land_formats(spark, plan, threads=threads, project_dir=project, landing_schema="cdc_landing",
                               scratch_dir=root / "local" / "tmp", progress=False)
    total = time.perf_counter() - t
    print(f"batch {i}: {total:.2f} s landed {sum(r.messages_landed for r in res.values())}; " +
          ", ".join(f"{k} {v:.2f}" for k, v in sorted(times.items(), key=lambda kv: -kv[1])), flush=True)
