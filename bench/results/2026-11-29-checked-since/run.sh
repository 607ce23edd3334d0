#!/bin/bash
# A 1,000-message Canal batch on a warehouse holding 1M Canal messages (the peer bench's), old vs new code.
# usage: run.sh catchup|TAG PROJ
set -e
W=/work/exp/s26/bench/work/runs/peer-canal
mode=$1; P=${2:-/work/main}
export CDC_LOCAL_DIR=$W/cdc_local CDC_SCHEMA=bench DBT_PROFILES_DIR=$P/profiles PYTHONUNBUFFERED=1 CDC_DRIVER_MEMORY=8g
VARS='{"cdc_formats": ["canal"], "cdc_canal_legacy_layout": false, "cdc_landing_schema": "bench_landing"}'
cd $P
if [ "$mode" = catchup ]; then
  # everything the peer run left out (row_history, marts, tests), on the new code
  /usr/bin/time -v $P/.venv/bin/python -m python_udfs.pipeline.cli --project-dir $P dbt build --vars "$VARS" \
     --target-path /work/exp/s29/scale/catchup/target --log-path /work/exp/s29/scale/catchup/logs > /work/exp/s29/scale/catchup.log 2>&1
  rm -rf $W/cdc_local.snap; cp -a $W/cdc_local $W/cdc_local.snap
  exit 0
fi
rm -rf $W/cdc_local; cp -a $W/cdc_local.snap $W/cdc_local
out=/work/exp/s29/scale/$mode; rm -rf $out; mkdir -p $out
/usr/bin/time -v $P/.venv/bin/python -m python_udfs.pipeline.cli --project-dir $P watch /work/exp/s29/scale/batch/batch-0/canal --max-batches 1 \
  --dbt-arg=--vars "--dbt-arg=$VARS" --dbt-arg=--target-path --dbt-arg=$out/target --dbt-arg=--log-path --dbt-arg=$out/logs > $out/run.log 2>&1
