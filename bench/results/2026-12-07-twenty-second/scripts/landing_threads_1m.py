"""Landing threads on the 1M mixed stream (batch-0, five formats): each run lands every file
into fresh landing tables of its own schema, with 4 (today) or 5 threads, in the order
4, 5, 5, 4, in one session."""
import json, sys, time
from pathlib import Path
sys.path.insert(0, "/work/main")
from python_udfs.pipeline import cli, landing
V = json.loads(open("/tmp/r22/vars.json").read())
proj = Path("/work/main")
stream = Path("/work/main/bench/work/streams/mixed-1000000/batch-0")
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
for threads, schema in [(4, "lt_a"), (5, "lt_b"), (5, "lt_c"), (4, "lt_d")]:
    assert cli.run_dbt(proj, ["run-operation", "create_landing_tables", "--quiet", "--vars", json.dumps(dict(V, cdc_landing_schema=schema))])
    spark = cli.spark_session()
    t = time.perf_counter()
    out = landing.land_formats(spark, {f: [stream / f] for f in formats}, threads=threads, project_dir=proj,
                               landing_schema=schema, scratch_dir=Path("/tmp/r22/scratch"), progress=False)
    print(f"{threads} threads ({schema}): {time.perf_counter() - t:.2f} s, {sum(r.messages_landed for r in out.values())} messages, load {open('/proc/loadavg').read().split()[:3]}", flush=True)
