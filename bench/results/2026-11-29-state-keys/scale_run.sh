#!/bin/bash
# 1,000-message Canal batches on a warehouse holding 1M Canal messages: old (main) vs new (branch) code.
# usage: run.sh catchup | run.sh TAG PROJ VENV
W=/work/exp/s26/bench/work/runs/peer-canal
mode=$1; P=${2:-/work/wt_edit}; V=${3:-/work/main/.venv}
export CDC_LOCAL_DIR=$W/cdc_local CDC_SCHEMA=bench DBT_PROFILES_DIR=$P/profiles PYTHONUNBUFFERED=1 CDC_DRIVER_MEMORY=8g
VARS='{"cdc_formats": ["canal"], "cdc_canal_legacy_layout": false, "cdc_landing_schema": "bench_landing"}'
cd $P
if [ "$mode" = catchup ]; then
  /usr/bin/time -v $V/bin/python -m python_udfs.pipeline.cli --project-dir $P dbt build --vars "$VARS" \
     --target-path /work/exp/s30/scale/catchup/target --log-path /work/exp/s30/scale/catchup/logs > /work/exp/s30/scale/catchup.log 2>&1
  echo "catchup rc $?"
  rm -rf $W/cdc_local.snap; cp -a $W/cdc_local $W/cdc_local.snap
  exit 0
fi
rm -rf $W/cdc_local; cp -a $W/cdc_local.snap $W/cdc_local
for b in 2 3; do
  out=/work/exp/s32/scale/$mode/b$b; rm -rf $out; mkdir -p $out
  cat /proc/loadavg > $out/load
  /usr/bin/time -v $V/bin/python -m python_udfs.pipeline.cli --project-dir $P watch /work/exp/s29/stream/batch-$b/canal --max-batches 1 \
    --dbt-arg=--vars "--dbt-arg=$VARS" --dbt-arg=--target-path --dbt-arg=$out/target --dbt-arg=--log-path --dbt-arg=$out/logs > $out/run.log 2>&1
  echo "$mode b$b rc $?"; grep "Elapsed" $out/run.log
done
