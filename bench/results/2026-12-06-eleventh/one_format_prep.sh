#!/bin/bash
# A warehouse with one built Canal batch of 1,000 messages (the project's default formats enabled,
# only Canal landed), and the next batches' files (one_format_batch.sh lands batch 1 under new names).
set -e
cd /work/main
R=${WORK:-/tmp/one-format}
rm -rf $R/w0 $R/stream
.venv/bin/python - <<PY
from pathlib import Path
from bench.generate import generate_format
generate_format("canal", [1000] * 9, 20261206, Path("$R/stream"), file_lines=0)
PY
export CDC_LOCAL_DIR=$R/w0/local CDC_SCHEMA=bench DBT_PROFILES_DIR=/work/main/profiles SPARK_LOCAL_IP=127.0.0.1
.venv/bin/python -m python_udfs.pipeline.cli --project-dir /work/main watch $R/stream/batch-0/canal --format canal --max-batches 1 --dbt-arg=--target-path --dbt-arg=$R/w0/target --dbt-arg=--log-path --dbt-arg=$R/w0/logs > $R/prep.log 2>&1
