#!/bin/bash
label=$1; shift
root=${ROOT:-/tmp/x19/wh2}
s=$(date +%s.%N)
env CDC_LOCAL_DIR=$root/local CDC_SCHEMA=bench DBT_PROFILES_DIR=/work/main/profiles "$@" /work/main/.venv/bin/cdc-pipeline --project-dir /work/main dbt run-operation create_landing_tables --vars '{"cdc_formats": ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]}' > /tmp/x19/bare-$label.log 2>&1
echo "$label bare rc=$? $(echo "$(date +%s.%N) - $s" | bc) s load $(cut -d' ' -f1 /proc/loadavg)"
