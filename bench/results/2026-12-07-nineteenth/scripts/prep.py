"""Fresh warehouse at ROOT with batch-0 built; stream of N more 1,000-message batches."""
import json, os, subprocess, sys, shutil
from pathlib import Path
sys.path.insert(0, "/work/main")
from bench.generate import generate_format
root = Path(sys.argv[1]); n = int(sys.argv[2])
shutil.rmtree(root, ignore_errors=True)
formats = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
for f in formats:
    generate_format(f, [200] * (1 + n), 20261207, root / "stream", file_lines=0)
env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench", DBT_PROFILES_DIR="/work/main/profiles", PYTHONUNBUFFERED="1")
first = [str(root / "stream" / "batch-0" / f) for f in formats]
subprocess.run([sys.executable, "-m", "python_udfs.pipeline.cli", "--project-dir", "/work/main", "watch", *first, "--max-batches", "1",
                "--dbt-arg=--vars", f"--dbt-arg={json.dumps({'cdc_formats': formats})}"], env=env, check=True, cwd="/work/main")
