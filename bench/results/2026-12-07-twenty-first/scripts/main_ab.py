"""The bench's main scenario (1M mixed: land, build, 1% increment) once per argument, each
from the checkout named (before: /tmp/r21/before at HEAD, after: /work/main), in turn; prints
land/build/increment seconds and CPU, and the state models' increment times."""
import json, os, subprocess, sys
ROOTS = {"before": "/tmp/r21/before", "after": "/tmp/r21/after"}
base = json.load(open("/work/main/bench/work/runs/main/scenario.json"))
base.pop("name"); base.pop("work_dir")
json.dump(base, open("/tmp/r21/exp/main-scenario.json", "w"))
for which in sys.argv[1:]:
    code = f"""
import json, sys
sys.path.insert(0, {ROOTS[which]!r})
from pathlib import Path
from bench.run import run_worker
base = json.load(open('/tmp/r21/exp/main-scenario.json'))
r = run_worker(Path('/tmp/r21/abwork'), 'main', {{**base, 'steps': ['land', 'build', 'increment']}}, '8g')
st = r['steps']; m = r.get('increment_models', {{}})
print(f"{which} land {{st['land']['seconds']}} build {{st['build']['seconds']}} (cpu {{st['build']['cpu_seconds']}}) "
      f"increment_land {{st['increment_land']['seconds']}} increment_build {{st['increment_build']['seconds']}} "
      f"(cpu {{st['increment_build']['cpu_seconds']}}) layers cs {{m.get('int_current_state_layers')}} rh {{m.get('int_row_history_layers')}} "
      f"verified {{r['verify']['ok']}} load {{r['load_end']}}", flush=True)
"""
    subprocess.run([sys.executable, "-c", code], cwd=ROOTS[which], check=True)
