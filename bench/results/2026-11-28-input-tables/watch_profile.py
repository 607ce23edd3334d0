"""Warm watch: per-node times of each 1,000-message batch (run from the bench worktree)."""
import json, os, shutil, subprocess, sys, time
from pathlib import Path
sys.path.insert(0, os.getcwd())
from bench.generate import generate_format
from bench.small import CLI, read_until, batch_folders

formats = ['dataworks', 'datahub_tuple', 'canal', 'debezium', 'shareplex']
root = Path(sys.argv[1]); reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
extra = sys.argv[3:]
shutil.rmtree(root, ignore_errors=True)
stream = root / "stream"
for f in formats:
    generate_format(f, [200] * (1 + reps), 20261124, stream, file_lines=0)
env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench",
           DBT_PROFILES_DIR=str(Path.cwd() / "profiles"), PYTHONUNBUFFERED="1")
target = root / "target"
inbox = root / "inbox"
for f in formats:
    (inbox / f).mkdir(parents=True, exist_ok=True)
# batch 0 goes straight into the inbox: the first build
for f in formats:
    for p in (stream / "batch-0" / f).rglob("*.jsonl"):
        p.rename(inbox / f / f"b0-{p.name}")
w = subprocess.Popen([*CLI, "watch", *[str(inbox / f) for f in formats], "--interval", "0.2", "--settle", "0",
                      "--dbt-arg=--target-path", f"--dbt-arg={target}", *extra],
                     env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
try:
    print(read_until(w, "batch 1:", 1200).strip(), flush=True)
    for i in range(reps):
        t0 = time.perf_counter()
        for f in formats:
            for p in (stream / f"batch-{1+i}" / f).rglob("*.jsonl"):
                p.rename(inbox / f / f"r{i}-{p.name}")
        line = read_until(w, f"batch {2+i}:", 1200)
        print(f"{time.perf_counter()-t0:.2f} s", line.strip(), flush=True)
        rr = json.load(open(target / "run_results.json"))
        res = sorted(rr["results"], key=lambda r: -r["execution_time"])
        tot = sum(r["execution_time"] for r in res)
        print(f"  nodes {len(res)}, sum exec {tot:.1f} s, elapsed {rr['elapsed_time']:.1f}")
        models = [r for r in res if r["unique_id"].startswith("model")]
        tests = [r for r in res if not r["unique_id"].startswith("model")]
        print(f"  models {len(models)} {sum(r['execution_time'] for r in models):.1f} s; tests/other {len(tests)} {sum(r['execution_time'] for r in tests):.1f} s")
        for r in res[:25]:
            print(f"   {r['execution_time']:6.2f} {r['unique_id']}")
        shutil.copy(target / "run_results.json", root / f"run_results_{i}.json")
finally:
    w.terminate(); w.wait(timeout=300)
