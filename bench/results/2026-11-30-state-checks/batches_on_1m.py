"""1,000-message Canal batches on a copy of a built 1M Canal warehouse, in one warm watch.

    python bench/results/2026-11-30-state-checks/batches_on_1m.py RUN_DIR COPY_DIR [BATCHES]

RUN_DIR is a `bench.run --only peer-canal --peer-size 1000000 --keep-streams` run folder
(runs/peer-canal: its cdc_local warehouse and scenario.json); COPY_DIR receives a copy of the
warehouse, so RUN_DIR is left as it was. Each batch's line gives its landing and build
seconds; COPY_DIR/logs/dbt.log has every node's timing (the first batch also builds the
models `dbt run --select +current_state` left out, and runs every check once).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench.generate import generate_format  # noqa: E402
from bench.small import CLI, PROJECT_DIR, read_until  # noqa: E402


def main() -> None:
    run, root = Path(sys.argv[1]), Path(sys.argv[2])
    batches = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(run / "cdc_local", root / "local")
    stream = root / "stream"
    generate_format("canal", [1000] * (batches + 1), 777, stream, file_lines=0)
    dbt_vars = json.loads((run / "scenario.json").read_text(encoding="utf-8"))["vars"]
    env = dict(os.environ, CDC_LOCAL_DIR=str(root / "local"), CDC_SCHEMA="bench", PYTHONUNBUFFERED="1",
               DBT_PROFILES_DIR=str(PROJECT_DIR / "profiles"), DBT_TARGET_PATH=str(root / "target"),
               DBT_LOG_PATH=str(root / "logs"))
    inbox = root / "inbox" / "canal"
    inbox.mkdir(parents=True)
    watch = subprocess.Popen(
        [*CLI, "watch", str(inbox), "--interval", "0.2", "--settle", "0", "--max-batches", str(batches),
         "--dbt-arg=--vars", f"--dbt-arg={json.dumps(dbt_vars)}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=PROJECT_DIR,
    )
    try:
        for i in range(batches):
            started = time.perf_counter()
            for path in (stream / f"batch-{1 + i}" / "canal").rglob("*.jsonl"):
                shutil.copy(path, inbox / f"b{i}-{path.parent.name}-{path.name}")
            line = read_until(watch, f"batch {1 + i}:", timeout=1800)
            print(i + 1, round(time.perf_counter() - started, 2), line.strip(), flush=True)
    finally:
        watch.wait(timeout=600)


if __name__ == "__main__":
    main()
