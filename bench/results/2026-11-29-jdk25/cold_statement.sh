#!/usr/bin/env bash
# usage: cold.sh LABEL [env assignments...] ; runs staging `full full` in a fresh process
label=$1; shift
cd /work/main
export CDC_LOCAL_DIR=/work/exp/s35/bench/work/runs/peer-canal/cdc_local CDC_SCHEMA=bench CDC_DRIVER_MEMORY=8g SPARK_LOCAL_IP=127.0.0.1 DBT_PROFILES_DIR=/work/main/profiles
export DBT_TARGET_PATH=/work/exp/s35/jdk/target DBT_LOG_PATH=/work/exp/s35/jdk/logs
start=$(date +%s.%N); load=$(cut -d' ' -f1 /proc/loadavg)
out=$(env "$@" .venv/bin/python bench/results/2026-11-29-staging-profile/staging_variants.py \
  /work/exp/s35/bench/work/runs/peer-canal/target/compiled/cdc_changelog/models/staging/canal/stg_canal__events.sql full full 2>/work/exp/s35/jdk/$label.err | tr '\n' ' ')
end=$(date +%s.%N)
echo "$label load=$load process=$(echo "$end - $start" | bc) $out"
