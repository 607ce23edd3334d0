"""As landing_python_read.py, for larger batches: NB consecutive batches of the stream (the last NB
before batch 2200; the 10- and 50-batch runs read from batch 2100 on; five formats), landed by Spark's text reader (PYTHON_READ_BYTES 0) and read in
Python (the bound raised to 64 MiB), alternating (spark, python, python, spark), one warm session,
a fresh scratch warehouse. Usage: landing_python_read_sizes.py ROUNDS NB"""
import sys, time, shutil, statistics
from pathlib import Path
sys.path.insert(0, "/work/main")
from python_udfs.pipeline import cli, landing
V = open("/tmp/r25/vars.json").read()
proj = Path("/work/main")
assert cli.run_dbt(proj, ["run-operation", "create_landing_tables", "--quiet", "--vars", V])
spark = cli.spark_session()
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
NB = int(sys.argv[2]) if len(sys.argv) > 2 else 10
res = {"spark": [], "python": []}
for it in range(int(sys.argv[1])):
    arm = ["spark", "python", "python", "spark"][it % 4]
    landing.PYTHON_READ_BYTES = 0 if arm == "spark" else 64 * 1024 * 1024
    inbox = Path(f"/tmp/r25/tinbox10k/{NB}-{it}")
    shutil.rmtree(inbox, ignore_errors=True)
    for f in formats:
        (inbox / f).mkdir(parents=True)
        for b in range(2200 - NB, 2200):
            for p in (Path(f"/tmp/r25/stream/batch-{b}") / f).rglob("*.jsonl"):
                shutil.copy(p, inbox / f / f"t{it}-{b}-{p.parent.name}-{p.name}")
    size = sum(p.stat().st_size for p in inbox.rglob("*.jsonl"))
    t = time.perf_counter()
    out = landing.land_formats(spark, {f: [inbox / f] for f in formats}, project_dir=proj,
                               landing_schema="cdc_landing", scratch_dir=Path("/tmp/r25/scratch"), progress=False,
                               compact_min_files=10**9)
    res[arm].append(time.perf_counter() - t)
    assert sum(r.messages_landed for r in out.values()) == sum(r.messages_read for r in out.values()) > NB * 900
print(f"batch bytes {size}")
for k, v in res.items():
    print(f"{k:7} median of rounds after the first two {statistics.median(v[2:]):.3f} s;", " ".join(f"{x:.2f}" for x in v))
print("load", open("/proc/loadavg").read().split()[:3])
