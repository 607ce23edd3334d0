#!/bin/bash
# $1 = checkout, $2 = name: the prepared warehouse restored at its own path, then one new
# 1,000-message Canal batch (batch-1's files under new names) landed and built, one process.
R=/tmp/one-format
W=/tmp/ab14/live-$2
rm -rf $W && cp -a /tmp/ab14/snap-$2 $W
mkdir -p $W/in/canal
for f in $R/stream/batch-1/canal/*/*.jsonl; do cp "$f" "$W/in/canal/b1-$(basename $(dirname $f))-$(basename $f)"; done
export CDC_LOCAL_DIR=$W/local CDC_SCHEMA=bench DBT_PROFILES_DIR=$1/profiles SPARK_LOCAL_IP=127.0.0.1
cd $1
/work/main/.venv/bin/python -m python_udfs.pipeline.cli --project-dir $1 watch $W/in/canal --format canal --max-batches 1 --dbt-arg=--target-path --dbt-arg=$W/target --dbt-arg=--log-path --dbt-arg=$W/logs > $W/run.log 2>&1
rc=$?
grep "^batch" $W/run.log >> /tmp/ab14/batch-lines-$2.txt
[ -n "$KEEP" ] && cp -a $W "$KEEP"
exit $rc
