"""Landing threads: a 1,000-message batch of five formats landed with 2, 4 (today) and 5
threads, in turn, in one warm session (the small scenario's warehouse); each round lands new
copies of one batch under new file names."""
import os, sys, time, shutil, statistics
from pathlib import Path
sys.path.insert(0, "/work/main")
from python_udfs.pipeline import cli, landing
V = open("/tmp/r22/vars.json").read()
proj = Path("/work/main")
assert cli.run_dbt(proj, ["run-operation", "create_landing_tables", "--quiet", "--vars", V])
spark = cli.spark_session()
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
src = Path("/tmp/r22/stream/batch-70")
res = {}
order = [2, 4, 5]
for it in range(int(sys.argv[1])):
    threads = order[it % 3] if (it // 3) % 2 == 0 else order[2 - it % 3]
    inbox = Path(f"/tmp/r22/tinbox/{it}")
    shutil.rmtree(inbox, ignore_errors=True)
    for f in formats:
        (inbox / f).mkdir(parents=True)
        for p in (src / f).rglob("*.jsonl"):
            shutil.copy(p, inbox / f / f"t{it}-{p.parent.name}-{p.name}")
    t = time.perf_counter()
    out = landing.land_formats(spark, {f: [inbox / f] for f in formats}, threads=threads, project_dir=proj,
                               landing_schema="cdc_landing", scratch_dir=Path("/tmp/r22/scratch"), progress=False,
                               compact_min_files=10**9)
    res.setdefault(threads, []).append(time.perf_counter() - t)
    assert sum(r.messages_landed for r in out.values()) == 1000
for k in sorted(res):
    v = res[k]
    print(f"{k} threads: median of rounds after the first two {statistics.median(v[2:]):.2f} s;", " ".join(f"{x:.2f}" for x in v))
print("load", open("/proc/loadavg").read().split()[:3])
