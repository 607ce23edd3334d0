#!/bin/bash
# `cdc-pipeline demo` on a fresh warehouse (the bundled samples landed, built, summarised).
# $1: CDC_JIT for this run ("" = unset: the CLI's own choice).
cd /work/main
export DBT_PROFILES_DIR=/work/main/profiles SPARK_LOCAL_IP=127.0.0.1 CDC_LOCAL_DIR=/tmp/r24/demo-local
unset CDC_JVM_OPTIONS
if [ -n "$1" ]; then export CDC_JIT="$1"; else unset CDC_JIT; fi
rm -rf /tmp/r24/demo-local /work/main/target/partial_parse.msgpack.demo
exec /work/main/.venv/bin/cdc-pipeline demo >> /tmp/r24/demo-$(date +%s%N).log 2>&1
