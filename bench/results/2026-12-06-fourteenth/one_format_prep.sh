#!/bin/bash
# $1 = checkout, $2 = name: a warehouse at /tmp/ab14/live-$2 holding one built 1,000-message
# Canal batch (the five default formats enabled, only Canal landed), built by that checkout,
# kept as /tmp/ab14/snap-$2. (The metastore holds absolute table locations: every run must
# use the warehouse at the path it was built at, so runs restore it there.)
set -e
R=/tmp/one-format
W=/tmp/ab14/live-$2; rm -rf $W /tmp/ab14/snap-$2; mkdir -p $W
export CDC_LOCAL_DIR=$W/local CDC_SCHEMA=bench DBT_PROFILES_DIR=$1/profiles SPARK_LOCAL_IP=127.0.0.1
cd $1
/work/main/.venv/bin/python -m python_udfs.pipeline.cli --project-dir $1 watch $R/stream/batch-0/canal --format canal --max-batches 1 --dbt-arg=--target-path --dbt-arg=$W/target --dbt-arg=--log-path --dbt-arg=$W/logs > $W/prep.log 2>&1
sleep 3; rm -rf $W/local/tmp; cp -a $W /tmp/ab14/snap-$2
