#!/bin/bash
# One-shot batch: a fresh `cdc-pipeline watch <batch folders> --max-batches 1` on the small
# warehouse, the next unused batch of /tmp/r24/stream each run. $1: JVM options (CDC_JVM_OPTIONS).
cd /work/main
export DBT_PROFILES_DIR=/work/main/profiles CDC_LOCAL_DIR=/work/main/bench/work/runs/small/local CDC_SCHEMA=bench SPARK_LOCAL_IP=127.0.0.1 PYTHONUNBUFFERED=1
export CDC_JVM_OPTIONS="$1"
S=/tmp/r24
exec 9>$S/next.lock; flock 9
K=${K:-1}; n=$(cat $S/next); echo $((n+K)) > $S/next
flock -u 9
V=$(cat $S/vars.json)
echo "batch $n x$K opts '$1' $(date +%T)" >> $S/oneshot.log
exec /work/main/.venv/bin/python -m python_udfs.pipeline.cli --project-dir /work/main watch $(for b in $(seq $n $((n+K-1))); do for f in dataworks datahub_tuple canal debezium shareplex; do echo $S/stream/batch-$b/$f; done; done) --max-batches 1 --dbt-arg=--vars "--dbt-arg=$V" >> $S/oneshot-$n.log 2>&1
