"""Profile a warm watch: per-node times of each batch's dbt build (run_results.json)."""
import json, os, shutil, subprocess, sys, time
from pathlib import Path
sys.path.insert(0, '/work/main')
from bench.generate import generate_format
from bench.small import read_until
P = Path(sys.argv[3]) if len(sys.argv) > 3 else Path('/work/main'); root = Path(sys.argv[1]); nb = int(sys.argv[2]) if len(sys.argv) > 2 else 4
formats = ['dataworks', 'datahub_tuple', 'canal', 'debezium', 'shareplex']
shutil.rmtree(root, ignore_errors=True)
stream = root / 'stream'
for f in formats: generate_format(f, [200] * (1 + nb), 20261124, stream, file_lines=0)
keys = json.load(open('/tmp/prof/keys.json'))
dbt_vars = {"cdc_formats": formats, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False}
env = dict(os.environ, CDC_LOCAL_DIR=str(root / 'local'), CDC_SCHEMA='bench', DBT_PROFILES_DIR=str(P / 'profiles'), PYTHONUNBUFFERED='1')
inbox = root / 'inbox'
for f in formats: (inbox / f).mkdir(parents=True)
tp = root / 'target'
cmd = [sys.executable, '-m', 'python_udfs.pipeline.cli', '--project-dir', str(P), 'watch', *[str(inbox / f) for f in formats],
       '--interval', '0.2', '--settle', '0', '--dbt-arg=--vars', f'--dbt-arg={json.dumps(dbt_vars)}', '--dbt-arg=--target-path', f'--dbt-arg={tp}']
w = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=P)
def move(i):
    for f in formats:
        for p in (stream / f'batch-{i}' / f).rglob('*.jsonl'):
            p.rename(inbox / f / f'r{i}-{p.parent.name}-{p.name}')
try:
    move(0); print(read_until(w, 'batch 1:'), flush=True)
    for i in range(1, nb + 1):
        t = time.perf_counter(); move(i); line = read_until(w, f'batch {i+1}:')
        print(round(time.perf_counter() - t, 2), line, flush=True)
        shutil.copy(tp / 'run_results.json', root / f'run_results_{i}.json')
finally:
    w.terminate(); w.wait(timeout=300)
