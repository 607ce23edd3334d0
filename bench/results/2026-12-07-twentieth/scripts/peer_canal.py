import json, sys
sys.path.insert(0, "/work/main")
from pathlib import Path
from bench.run import run_worker
s = json.load(open("/tmp/exp/peer-canal-scenario.json"))
s.pop("name"); s.pop("work_dir")
r = run_worker(Path("/tmp/exp/work"), "peer-canal", s, "8g")
print(json.dumps({k: r.get(k) for k in ("build_models", "process_seconds")}))
print("steps", {k: v.get("seconds") for k, v in r.get("steps", {}).items()})
