"""The bench's main scenario (1M mixed: land, build, 1% increment) once per argument, each
with CDC_THREADS set to it, in turn; prints land/build/increment seconds and CPU."""
import json, os, sys
sys.path.insert(0, "/work/main")
from pathlib import Path
from bench.run import run_worker
base = json.load(open("/tmp/exp/main-scenario.json"))
base.pop("name"); base.pop("work_dir")
for threads in sys.argv[1:]:
    os.environ["CDC_THREADS"] = threads
    r = run_worker(Path("/tmp/exp/work"), "main", {**base, "steps": ["land", "build", "increment"]}, "8g")
    st = r["steps"]
    print(f"threads={threads} land {st['land']['seconds']} build {st['build']['seconds']} (cpu {st['build']['cpu_seconds']}) "
          f"increment_land {st['increment_land']['seconds']} increment_build {st['increment_build']['seconds']} "
          f"(cpu {st['increment_build']['cpu_seconds']}) verified {r['verify']['ok']} load {r['load_end']}", flush=True)
