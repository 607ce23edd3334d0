"""What this folder's watch measurements share: a generated stream of five formats (200
messages each per batch), a fresh warehouse with the first batch built, a watch (no warm-up,
idle checks put off) started on empty inbox folders, and batches moved in back to back."""
import json, os, shutil, subprocess, sys
from pathlib import Path
ROOT = Path("/work/main"); sys.path.insert(0, str(ROOT))
from bench.generate import FORMAT_WRITERS, base_tables, generate_format
from bench.small import read_until, batch_folders, CLI
FORMATS = ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]
N = 8  # batches moved in


def dbt_vars() -> str:
    keys = {}
    for f in FORMATS:
        keys.update(FORMAT_WRITERS[f]().primary_keys(base_tables()))
    return json.dumps({"cdc_formats": FORMATS, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False})


def start_watch(root: Path, **env_values: str):
    """A watch on a fresh warehouse under `root` (its first batch built), once it reported
    its first cycle; returns (process, stream folder, inbox folder). `env_values` over the
    defaults (CDC_LOCAL_DIR, CDC_SCHEMA, DBT_PROFILES_DIR, PYTHONUNBUFFERED)."""
    shutil.rmtree(root, ignore_errors=True)
    stream = root / "stream"
    for f in FORMATS:
        generate_format(f, [200] * (N + 1), 20261124, stream, file_lines=0)
    env = {**os.environ, "CDC_LOCAL_DIR": str(root / "local"), "CDC_SCHEMA": "bench", "PYTHONUNBUFFERED": "1",
           "DBT_PROFILES_DIR": str(ROOT / "profiles"), **env_values}
    variables = dbt_vars()
    subprocess.run([*CLI, "watch", *batch_folders(stream, 0, FORMATS), "--max-batches", "1",
                    "--dbt-arg=--vars", f"--dbt-arg={variables}"], env=env, check=True, capture_output=True)
    inbox = root / "inbox"
    for f in FORMATS:
        (inbox / f).mkdir(parents=True)
    w = subprocess.Popen([*CLI, "watch", *[str(inbox / f) for f in FORMATS], "--interval", "0.2", "--settle", "0",
                          "--no-warm-up", "--checks-idle", "600", "--dbt-arg=--vars", f"--dbt-arg={variables}"],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    read_until(w, "batch 1:")
    return w, stream, inbox


def move_in(stream: Path, inbox: Path, batch: int) -> None:
    """Batch `batch`'s files of every format moved into the watched folders."""
    for f in FORMATS:
        for p in (stream / f"batch-{batch}" / f).rglob("*.jsonl"):
            p.rename(inbox / f / f"b{batch}-{p.parent.name}-{p.name}")


def wait_for_batch(w, batch: int) -> str:
    """The watch's log line of the batch after `batch` moved in."""
    return read_until(w, f"batch {batch + 1}:")
