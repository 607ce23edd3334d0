#!/bin/bash
# A warm watch over batches 1..7 on a fresh warehouse each time (batch 0 built first by a
# one-batch watch, as bench/small.py does), with CDC_THREADS=1 and 2 in turn (1, 2, 2, 1).
# Needs gen_batches.py /tmp/sb/stream 12. (A copied warehouse will not do: the metastore keeps
# each table's absolute location, so a copy writes into the original's files.)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$ROOT"
VARS=$(PYTHONPATH=. .venv/bin/python -c "
import json
from bench.generate import FORMAT_WRITERS, base_tables
formats = ['dataworks', 'datahub_tuple', 'canal', 'debezium', 'shareplex']
keys = {}
[keys.update(FORMAT_WRITERS[f]().primary_keys(base_tables())) for f in formats]
print(json.dumps({'cdc_formats': formats, 'cdc_primary_keys': keys, 'cdc_canal_legacy_layout': False}))")
for t in ${THREADS_ORDER:-1 2 2 1}; do
  LOCAL=/tmp/sb/w_threads_$t
  rm -rf "$LOCAL"
  echo "=== threads $t load $(cut -d' ' -f1-3 /proc/loadavg)"
  CDC_LOCAL_DIR=$LOCAL CDC_SCHEMA=bench CDC_THREADS=$t .venv/bin/python -m python_udfs.pipeline.cli --project-dir "$ROOT" \
    watch /tmp/sb/stream/batch-0/{dataworks,datahub_tuple,canal,debezium,shareplex} --max-batches 1 \
    "--dbt-arg=--vars" "--dbt-arg=$VARS" | grep "^batch"
  CDC_THREADS=$t .venv/bin/python "$HERE/watch_many.py" "$LOCAL" /tmp/sb/stream 1 7 /tmp/sb/inbox_ab
done
