"""Landing of the 1M mixed batch-0 with CDC_LANDING_THREADS variants, alternating in one warm JVM.
usage: land_ab.py ROUNDS N1 N2 ..."""
import os, sys, time, shutil
from pathlib import Path
ROOT = __import__("pathlib").Path(__file__).resolve().parents[3]; sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / "bench/results/2026-12-03-night-one-shuffle"))
import ab_compiled_sql
from python_udfs.pipeline.landing import land_formats
spark = ab_compiled_sql.session(str(ROOT / "bench/work/runs/main/cdc_local"))
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
stream = ROOT / "bench/work/streams/mixed-1000000/batch-0"
rounds, variants = int(sys.argv[1]), [int(x) for x in sys.argv[2:]]
pid = spark._jvm.java.lang.ProcessHandle.current().pid(); tick = os.sysconf("SC_CLK_TCK")
def cpu():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split(); return (int(f[11]) + int(f[12])) / tick
def land(n, tag):
    schema = f"landab_{tag}"
    spark.sql(f"drop database if exists {schema} cascade"); spark.sql(f"create database {schema}")
    for f in formats:
        spark.sql(f"create table {schema}.raw_{f} like bench_landing.raw_{f}")
    plan = {f: [stream / f] for f in formats}
    c0, t0 = cpu(), time.perf_counter()
    res = land_formats(spark, plan, threads=n, project_dir=ROOT, landing_schema=schema,
                       scratch_dir=Path("/tmp/lab/scratch"), progress=False)
    wall, c = time.perf_counter() - t0, cpu() - c0
    assert sum(r.messages_landed for r in res.values()) == 1000000, {f: r.messages_landed for f, r in res.items()}
    spark.sql(f"drop database {schema} cascade")
    return wall, c
land(variants[0], "warm")
fig = {n: [] for n in variants}
for r in range(rounds):
    order = variants if r % 2 == 0 else variants[::-1]
    for n in order:
        w, c = land(n, f"{n}_{r}"); fig[n].append((round(w, 2), round(c, 1)))
    print(r, {n: fig[n][-1] for n in variants}, os.getloadavg()[0], flush=True)
import statistics
for n in variants:
    print(f"threads {n}: wall median {statistics.median(w for w, _ in fig[n]):.2f} s {sorted(w for w,_ in fig[n])}, CPU median {statistics.median(c for _, c in fig[n]):.1f} s")
