#!/bin/bash
cd /work/main
export DBT_PROFILES_DIR=$PWD/profiles CDC_LOCAL_DIR=$PWD/bench/work/runs/small/local CDC_SCHEMA=bench SPARK_LOCAL_IP=127.0.0.1 PYTHONUNBUFFERED=1
V=$(cat /tmp/r21/vars.json)
IN=/tmp/r21/inbox; rm -rf $IN; for f in dataworks datahub_tuple canal debezium shareplex; do mkdir -p $IN/$f; done
.venv/bin/python -m python_udfs.pipeline.cli --project-dir $PWD watch $(for f in dataworks datahub_tuple canal debezium shareplex; do echo $IN/$f; done) --interval 0.2 --settle 0 --dbt-arg=--vars "--dbt-arg=$V" > /tmp/r21/watch.log 2>&1 &
WP=$!
until grep -q "warm-up:" /tmp/r21/watch.log; do sleep 1; done
JP=$(pgrep -P $WP java || pgrep -f "java.*pyspark" | head -1)
echo "watch $WP jvm $JP"
i=0
for n in "$@"; do
  i=$((i+1))
  .venv/bin/python /tmp/r21/exp/threadcpu.py $JP /tmp/r21/snap.json
  pb=$(awk '{print $14+$15}' /proc/$WP/stat)
  H=/tmp/r21/hold; rm -rf $H; mkdir -p $H
  for f in dataworks datahub_tuple canal debezium shareplex; do mkdir -p $H/$f
    for p in $(find /tmp/r21/stream/batch-$n/$f -name '*.jsonl'); do cp $p $H/$f/b$n-$(basename $(dirname $p))-$(basename $p); done
  done
  for f in dataworks datahub_tuple canal debezium shareplex; do mv $H/$f/* $IN/$f/; done
  until [ $(grep -c "^batch " /tmp/r21/watch.log) -gt $i ]; do sleep 0.2; done
  pa=$(awk '{print $14+$15}' /proc/$WP/stat)
  grep "^batch " /tmp/r21/watch.log | tail -1
  echo "python main process cpu: $(( (pa-pb) ))/100 s"
  .venv/bin/python /tmp/r21/exp/threadcpu.py $JP /tmp/r21/snap.json diff
done
kill $WP; wait
