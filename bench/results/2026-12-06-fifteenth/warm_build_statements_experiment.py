"""Experiment (not committed): warm five-format builds, statements of the last one."""
import glob
import json
import os
import re
import time

import pytest

pytestmark = pytest.mark.dbt
VARS = json.load(open("/tmp/exp15/vars.json"))
FORMATS = VARS["cdc_formats"]


def lines(batch, fmt):
    out = []
    for f in sorted(glob.glob(f"/tmp/exp15/stream/batch-{batch}/{fmt}/*/*.jsonl")):
        out += [l for l in open(f, encoding="utf-8").read().splitlines() if l.strip()]
    return out


def profile(log_text):
    last = log_text.rsplit("Running with dbt=", 1)[-1]
    rows = []
    node = None
    for line in last.splitlines():
        m = re.search(r"On ([\w.]+): ", line)
        if m:
            node = m.group(1)
            text = line[m.end():m.end() + 90]
        m = re.search(r"SQL status: \S+ in ([\d.]+) seconds", line)
        if m and node:
            rows.append((node, float(m.group(1))))
    return rows


def test_warm_builds(make_pipeline):
    pipeline = make_pipeline("exp15", VARS)
    times = []
    for batch in range(0, int(os.environ.get("EXP_BATCHES", "7"))):
        for fmt in FORMATS:
            pipeline.land(fmt, lines(batch, fmt), name=f"b{batch}-{fmt}.jsonl")
        start = time.monotonic()
        pipeline.build()
        times.append(round(time.monotonic() - start, 2))
    log = (pipeline.work_dir / "logs" / "dbt.log").read_text(encoding="utf-8")
    rows = profile(log)
    per = {}
    for node, s in rows:
        c, t = per.get(node, (0, 0.0))
        per[node] = (c + 1, t + s)
    with open(os.environ.get("AB_OUT", "/tmp/exp15/out.txt"), "a") as out:
        out.write(f"{os.getcwd()} builds {times}\n")
        out.write(f"statements {len(rows)} sql-seconds {sum(s for _, s in rows):.2f}\n")
        for node, (c, t) in sorted(per.items(), key=lambda kv: -kv[1][1]):
            out.write(f"  {t:6.2f} {c:3d} {node}\n")
        nodes = re.findall(r"(\d+ of \d+ \w+ .*?\[.*? in [\d.]+s\])", log.rsplit("Running with dbt=", 1)[-1])
        for n in nodes:
            out.write("   " + n + "\n")
    (pipeline.work_dir / "logs" / "dbt.log").rename("/tmp/exp15/last-dbt.log")


def built_inserts(make_pipeline, name, batches):
    """A pipeline with `batches` batches of every format built; the insert statements of
    its last build (dbt's target/run files)."""
    pipeline = make_pipeline(name, VARS)
    for batch in range(0, batches):
        for fmt in FORMATS:
            pipeline.land(fmt, lines(batch, fmt), name=f"b{batch}-{fmt}.jsonl")
        pipeline.build()
    run = pipeline.work_dir / "target" / "run" / "cdc_changelog" / "models"
    inserts = []
    for path in sorted(glob.glob(str(run / "*" / "*.sql")) + glob.glob(str(run / "staging" / "*" / "*.sql"))):
        text = open(path).read().strip()
        if text.startswith("insert"):
            inserts.append((os.path.basename(path), text))
    return inserts


def test_explain_times(make_pipeline):
    from pyspark.sql import SparkSession
    inserts = built_inserts(make_pipeline, "exp15e", 4)
    spark = SparkSession.builder.getOrCreate()
    with open(os.environ.get("AB_OUT", "/tmp/exp15/out.txt"), "a") as out:
        for name, text in inserts:
            ts = []
            for _ in range(3):
                s = time.monotonic()
                spark.sql("explain " + text).collect()
                ts.append(round(time.monotonic() - s, 3))
            out.write(f"explain {ts} {name}\n")


def test_phase_times(make_pipeline):
    from pyspark.sql import SparkSession
    inserts = built_inserts(make_pipeline, "exp15p", 3)
    spark = SparkSession.builder.getOrCreate()
    with open(os.environ.get("AB_OUT", "/tmp/exp15/out.txt"), "a") as out:
        for name, text in inserts:
            select = text[text.index("select "):]
            try:
                spark.sql(select)
            except Exception:
                continue
            for rep in range(3):
                df = spark.sql(select)
                qe = df._jdf.queryExecution()
                qe.executedPlan()
                phases = qe.tracker().phases()
                it = phases.keySet().iterator()
                ph = {}
                while it.hasNext():
                    k = it.next()
                    ph[k] = phases.apply(k).durationMs()
            rules = qe.tracker().rules()
            it = rules.keySet().iterator()
            rs = []
            while it.hasNext():
                k = it.next()
                r = rules.apply(k)
                rs.append((r.totalTimeNs() / 1e6, r.numInvocations(), k.split(".")[-1]))
            rs.sort(reverse=True)
            out.write(f"phases {ph} {name} rules-total {sum(r[0] for r in rs):.0f}ms\n")
            for r in rs[:6]:
                out.write(f"     {r[0]:7.1f} ms {r[1]:4d} {r[2]}\n")
