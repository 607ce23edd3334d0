#!/bin/bash
# Compile one model as a full build against a benchmark run's warehouse, for the scripts here.
#   bench/results/2026-12-04-evening-dropped/compile_model.sh RUN MODEL OUT.sql
# RUN is a folder name under bench/work/runs/ (main, peer-canal, peer-debezium); the vars are
# that run's scenario.json ones, as bench/worker.py passes them.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
RUN=$1; MODEL=$2; OUT=$(realpath -m "$3")
WORK=$(mktemp -d)
VARS=$("$ROOT/.venv/bin/python" -c "import json, sys; v = json.load(open(sys.argv[1]))['vars']; \
v['cdc_landing_schema'] = 'bench_landing'; print(json.dumps(v))" "$ROOT/bench/work/runs/$RUN/scenario.json")
cd "$ROOT"
CDC_LOCAL_DIR="$ROOT/bench/work/runs/$RUN/cdc_local" CDC_SCHEMA=bench DBT_PROFILES_DIR="$ROOT/profiles" \
    "$ROOT/.venv/bin/dbt" compile --quiet --full-refresh --select "$MODEL" --vars "$VARS" \
    --target-path "$WORK" > "$WORK/compile.log" 2>&1 || { tail -20 "$WORK/compile.log"; exit 1; }
cp "$(find "$WORK/compiled" -name "$MODEL.sql")" "$OUT"
rm -rf "$WORK"
