"""pytest plugin: each test's start and end per xdist worker, as JSON lines in /tmp/prof.

    PYTHONPATH=DIR PYTEST_ADDOPTS="-p ci_timeline_plugin --durations=0" CI=true bash .ci/run
"""
import os, time, json
_F = None
def _out():
    global _F
    if _F is None:
        wid = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _F = open(f"/tmp/prof/timeline-{wid}.jsonl", "a")
    return _F
def pytest_runtest_logstart(nodeid, location):
    _out().write(json.dumps({"ev": "start", "id": nodeid, "t": time.time()}) + "\n"); _F.flush()
def pytest_runtest_logfinish(nodeid, location):
    _out().write(json.dumps({"ev": "end", "id": nodeid, "t": time.time()}) + "\n"); _F.flush()
