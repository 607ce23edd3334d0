"""A 1,000-message batch of five formats landed with its text files read by Spark's text reader
(two jobs) and read in Python (_read_in_python), alternating ABBA, in one warm session on a scratch
warehouse; each round lands new copies of one batch under new file names. Also checks that both
ways land the same rows (raw_value, origin line numbers) for the same files."""
import os, sys, time, shutil, statistics, json
from pathlib import Path
sys.path.insert(0, "/work/main")
from python_udfs.pipeline import cli, landing
V = open("/tmp/r25/vars.json").read()
proj = Path("/work/main")
assert cli.run_dbt(proj, ["run-operation", "create_landing_tables", "--quiet", "--vars", V])
spark = cli.spark_session()
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
src = Path("/tmp/r25/stream/batch-2100")
res = {"spark": [], "python": []}
for it in range(int(sys.argv[1])):
    arm = ["spark", "python", "python", "spark"][it % 4]
    if arm == "spark": os.environ["XP_NO_PY"] = "1"
    else: os.environ.pop("XP_NO_PY", None)
    inbox = Path(f"/tmp/r25/tinbox/{it}")
    shutil.rmtree(inbox, ignore_errors=True)
    for f in formats:
        (inbox / f).mkdir(parents=True)
        for p in (src / f).rglob("*.jsonl"):
            shutil.copy(p, inbox / f / f"t{it}-{p.parent.name}-{p.name}")
    t = time.perf_counter()
    out = landing.land_formats(spark, {f: [inbox / f] for f in formats}, project_dir=proj,
                               landing_schema="cdc_landing", scratch_dir=Path("/tmp/r25/scratch"), progress=False,
                               compact_min_files=10**9)
    res[arm].append(time.perf_counter() - t)
    assert sum(r.messages_landed for r in out.values()) == sum(r.messages_read for r in out.values()) > 900
# the same files, both ways: the same (line, text) per file
for f in formats:
    rows = spark.sql(f"select regexp_extract(origin, 't[0-9]+-(.*)$', 1) as name, cast(regexp_extract(origin, '/t([0-9]+)-', 1) as int) as it, origin_offset, raw_value from cdc_landing.raw_{f}").collect()
    by = {}
    for r in rows:
        by.setdefault(["spark", "python", "python", "spark"][r["it"] % 4], set()).add((r["name"], r["origin_offset"], r["raw_value"]))
    assert by["spark"] == by["python"], f
for k, v in res.items():
    print(f"{k:7} median of rounds after the first two {statistics.median(v[2:]):.3f} s;", " ".join(f"{x:.2f}" for x in v))
print("load", open("/proc/loadavg").read().split()[:3])
