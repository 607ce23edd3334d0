#!/bin/bash
# restore the template into run/<tag>, land + build batch 1 in one process (the bench's batch_build)
set -e
tag=$1; shift; P=${PROJ:-/work/main}
cd /work/exp/s28/ab
S=/work/exp/s28/bench/work/runs/small/stream
rm -rf live && mkdir -p live run/$tag && cp -a template2 live/local
# the metastore holds absolute paths of the template: use the same path through a symlink swap
export CDC_LOCAL_DIR=/work/exp/s28/ab/live/local CDC_SCHEMA=bench DBT_PROFILES_DIR=$P/profiles PYTHONUNBUFFERED=1
F="$S/batch-2/dataworks $S/batch-2/datahub_tuple $S/batch-2/canal $S/batch-2/debezium $S/batch-2/shareplex"
exec env "$@" $P/.venv/bin/python -m python_udfs.pipeline.cli --project-dir $P watch $F --max-batches 1 \
  --dbt-arg=--vars "--dbt-arg=$(cat vars.json)" --dbt-arg=--target-path --dbt-arg=/work/exp/s28/ab/run/$tag/target
