#!/bin/bash
# Compile every staging, intermediate and mart model against a benchmark run's warehouse, as a
# full build (`--full-refresh`) or as the next incremental run (no flag), for count_scans.py:
#   bench/results/2026-12-05-held-pairs/compile_models.sh RUN OUT_DIR [--full-refresh]
# RUN is a folder under bench/work/runs/ (main, peer-canal, ...); its scenario's vars are used.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
RUN=$1; OUT=$(realpath -m "$2"); MODE=${3:-}
VARS=$("$ROOT/.venv/bin/python" -c "import json, sys; v = json.load(open(sys.argv[1]))['vars']; \
v['cdc_landing_schema'] = 'bench_landing'; print(json.dumps(v))" "$ROOT/bench/work/runs/$RUN/scenario.json")
cd "$ROOT"
CDC_LOCAL_DIR="$ROOT/bench/work/runs/$RUN/cdc_local" CDC_SCHEMA=bench DBT_PROFILES_DIR="$ROOT/profiles" \
    "$ROOT/.venv/bin/dbt" compile --quiet $MODE --vars "$VARS" --target-path "$OUT" \
    --select "models/staging models/intermediate models/marts" > "$OUT.log" 2>&1 || { tail -20 "$OUT.log"; exit 1; }
