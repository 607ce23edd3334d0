#!/bin/bash
# template: a warehouse holding batch 0, built
set -e
cd /work/exp/s28/ab
S=/work/exp/s28/bench/work/runs/small/stream
rm -rf template live && mkdir -p template live
export CDC_LOCAL_DIR=/work/exp/s28/ab/live/local CDC_SCHEMA=bench DBT_PROFILES_DIR=/work/main/profiles PYTHONUNBUFFERED=1
F="$S/batch-0/dataworks $S/batch-0/datahub_tuple $S/batch-0/canal $S/batch-0/debezium $S/batch-0/shareplex"
/work/main/.venv/bin/python -m python_udfs.pipeline.cli --project-dir /work/main watch $F --max-batches 1 \
  --dbt-arg=--vars "--dbt-arg=$(cat vars.json)" --dbt-arg=--target-path --dbt-arg=/work/exp/s28/ab/template/target
cp -a live/local template/local
