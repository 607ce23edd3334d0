import json, os, subprocess, sys, time
from pathlib import Path
P = Path('/work/main'); root = Path('/tmp/w0')
formats = ['dataworks', 'datahub_tuple', 'canal', 'debezium', 'shareplex']
keys = json.load(open('/tmp/prof/keys.json'))
dbt_vars = {"cdc_formats": formats, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False}
first = int(sys.argv[1]); pairs = int(sys.argv[2]); opts = sys.argv[3:5]
env0 = dict(os.environ, CDC_LOCAL_DIR=str(root / 'local'), CDC_SCHEMA='bench', DBT_PROFILES_DIR=str(P / 'profiles'), PYTHONUNBUFFERED='1')
b = first
for p in range(pairs):
    order = opts if p % 2 == 0 else opts[::-1]
    for o in order:
        env = dict(env0, CDC_JVM_OPTIONS=o)
        folders = [str(root / 'stream2' / f'batch-{b}' / f) for f in formats]; b += 1
        cmd = [str(P / '.venv/bin/python'), '-m', 'python_udfs.pipeline.cli', '--project-dir', str(P), 'watch', *folders, '--max-batches', '1',
               '--dbt-arg=--vars', f'--dbt-arg={json.dumps(dbt_vars)}', '--dbt-arg=--target-path', f'--dbt-arg={root}/target', '--dbt-arg=--log-path', f'--dbt-arg={root}/logs']
        t = time.perf_counter(); r = subprocess.run(cmd, env=env, capture_output=True, text=True); dt = time.perf_counter() - t
        line = [l for l in r.stdout.splitlines() if l.startswith('batch 1:')]
        print(f'{o!r:50s} rc={r.returncode} {dt:6.1f} s  {line[0][-80:] if line else r.stdout[-300:]}', flush=True)
