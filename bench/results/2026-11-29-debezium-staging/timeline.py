"""Pytest plugin: each test's start and end, per xdist worker, one JSON line each.

    PYTHONPATH=bench/results/2026-11-29-debezium-staging TIMELINE_OUT=/tmp/timeline.jsonl \
        PYTEST_ADDOPTS="-p timeline" bash .ci/run
    python3 bench/results/2026-11-29-debezium-staging/tl.py /tmp/timeline.jsonl
"""
import json, os, time
OUT = os.environ.get("TIMELINE_OUT", "timeline.jsonl")
def pytest_runtest_logstart(nodeid, location):
    with open(OUT, "a") as f:
        f.write(json.dumps({"w": os.environ.get("PYTEST_XDIST_WORKER", "main"), "ev": "start", "id": nodeid, "t": time.time()}) + "\n")
def pytest_runtest_logfinish(nodeid, location):
    with open(OUT, "a") as f:
        f.write(json.dumps({"w": os.environ.get("PYTEST_XDIST_WORKER", "main"), "ev": "end", "id": nodeid, "t": time.time()}) + "\n")
