#!/usr/bin/env bash
# one_batch.sh WORKTREE ROOT: land and build the next unused batch of ROOT/stream in one process
set -euo pipefail
wt=$1; root=$2
n=$(cat "$root/next" 2>/dev/null || echo 1); echo $((n + 1)) > "$root/next"
cd "$wt"
export CDC_LOCAL_DIR=$root/local CDC_SCHEMA=bench DBT_PROFILES_DIR=$wt/profiles PYTHONUNBUFFERED=1
folders=(); for f in dataworks datahub_tuple canal debezium shareplex; do folders+=("$root/stream/batch-$n/$f"); done
exec .venv/bin/python -m python_udfs.pipeline.cli --project-dir "$wt" watch "${folders[@]}" --max-batches 1 \
  --dbt-arg=--target-path "--dbt-arg=$root/target" --dbt-arg=--log-path "--dbt-arg=$root/logs"
