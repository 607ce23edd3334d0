#!/bin/bash
# oneshot.sh LABEL BATCH [env assignments...]: a 1,000-message batch landed and built in one process (watch --max-batches 1)
label=$1; b=$2; shift 2
root=${ROOT:-/tmp/x19/wh2}
f="dataworks datahub_tuple canal debezium shareplex"
dirs=""; for x in $f; do dirs="$dirs $root/stream/batch-$b/$x"; done
s=$(date +%s.%N)
env CDC_LOCAL_DIR=$root/local CDC_SCHEMA=bench DBT_PROFILES_DIR=/work/main/profiles "$@" /work/main/.venv/bin/python ${RUNNER:--m python_udfs.pipeline.cli} --project-dir /work/main watch $dirs --max-batches 1 --dbt-arg=--vars '--dbt-arg={"cdc_formats": ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]}' > /tmp/x19/oneshot-$label-$b.log 2>&1
rc=$?
e=$(date +%s.%N)
echo "$label batch $b rc=$rc $(echo "$e - $s" | bc) s load $(cut -d' ' -f1 /proc/loadavg) | $(grep -o 'landed [0-9]* messages.*' /tmp/x19/oneshot-$label-$b.log | cut -c1-30) $(grep -o 'built in [0-9.]* s' /tmp/x19/oneshot-$label-$b.log) $(grep -o 'checks.*in [0-9.]* s' /tmp/x19/oneshot-$label-$b.log | tail -1 | grep -o 'in [0-9.]* s$')"
