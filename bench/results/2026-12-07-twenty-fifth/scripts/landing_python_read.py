"""A batch of five formats landed by Spark's text reader (landing.PYTHON_READ_BYTES 0) and read in
Python (the bound raised to 64 MiB), alternating (spark, python, python, spark), one warm session,
a fresh scratch warehouse (CDC_LOCAL_DIR); each round lands new copies of NB consecutive batches
of the stream under new file names: batch 2100 for NB 1, batches 2100-2109 and 2100-2149 for the
10- and 50-batch runs, 2000-2199 for 200 (START). With NB 1 the rows of both ways are checked equal.
(The first runs of the 1,000-message case, landing-python-read.txt, toggled the same two ways
with a switch of the experiment's landing.py, XP_NO_PY, not committed.)
Usage: landing_python_read.py ROUNDS [NB [START]]"""
import sys, time, shutil, statistics
from pathlib import Path
sys.path.insert(0, "/work/main")
from python_udfs.pipeline import cli, landing
V = open("/tmp/r25/vars.json").read()
proj = Path("/work/main")
assert cli.run_dbt(proj, ["run-operation", "create_landing_tables", "--quiet", "--vars", V])
spark = cli.spark_session()
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
NB = int(sys.argv[2]) if len(sys.argv) > 2 else 1
START = int(sys.argv[3]) if len(sys.argv) > 3 else 2100
ARMS = ["spark", "python", "python", "spark"]
res = {"spark": [], "python": []}
for it in range(int(sys.argv[1])):
    arm = ARMS[it % 4]
    landing.PYTHON_READ_BYTES = 0 if arm == "spark" else 64 * 1024 * 1024
    inbox = Path(f"/tmp/r25/tinbox/{NB}-{it}")
    shutil.rmtree(inbox, ignore_errors=True)
    for f in formats:
        (inbox / f).mkdir(parents=True)
        for b in range(START, START + NB):
            for p in (Path(f"/tmp/r25/stream/batch-{b}") / f).rglob("*.jsonl"):
                shutil.copy(p, inbox / f / f"t{it}-{b}-{p.parent.name}-{p.name}")
    size = sum(p.stat().st_size for p in inbox.rglob("*.jsonl"))
    t = time.perf_counter()
    out = landing.land_formats(spark, {f: [inbox / f] for f in formats}, project_dir=proj,
                               landing_schema="cdc_landing", scratch_dir=Path("/tmp/r25/scratch"), progress=False,
                               compact_min_files=10**9)
    res[arm].append(time.perf_counter() - t)
    assert sum(r.messages_landed for r in out.values()) == sum(r.messages_read for r in out.values()) > NB * 900
if NB == 1:  # the same files, both ways: the same (line, text) per file
    for f in formats:
        rows = spark.sql(f"select regexp_extract(origin, 't[0-9]+-(.*)$', 1) as name, cast(regexp_extract(origin, '/t([0-9]+)-', 1) as int) as it, origin_offset, raw_value from cdc_landing.raw_{f}").collect()
        by = {}
        for r in rows:
            by.setdefault(ARMS[r["it"] % 4], set()).add((r["name"], r["origin_offset"], r["raw_value"]))
        assert by["spark"] == by["python"], f
print(f"batch bytes {size}")
for k, v in res.items():
    print(f"{k:7} median of rounds after the first two {statistics.median(v[2:] or v):.3f} s;", " ".join(f"{x:.2f}" for x in v))
print("load", open("/proc/loadavg").read().split()[:3])
