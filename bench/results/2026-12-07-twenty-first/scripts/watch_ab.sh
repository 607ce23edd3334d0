#!/bin/bash
# Paired watch A/B: for each "ROOT:FIRST_BATCH" argument, a warm watch from that checkout on the
# small scenario's warehouse, 5 batches of 1,000 new messages moved in one after another after
# its warm-up; prints each batch's landed + built seconds (the watch's own log line).
cd /work/main
export DBT_PROFILES_DIR=/work/main/profiles CDC_LOCAL_DIR=${WATCH_LOCAL:-/work/main/bench/work/runs/small/local} CDC_SCHEMA=bench SPARK_LOCAL_IP=127.0.0.1 PYTHONUNBUFFERED=1
# scratch folder: vars.json, stream/batch-N, and the inbox, hold and logs it writes. Optional:
# ENTRY (the Python entry point instead of `-m python_udfs.pipeline.cli`, e.g. a profiling
# wrapper), EXTRA_ARGS (more watch arguments), TAG (added to each log's name), WATCH_LOCAL (another
# warehouse's CDC_LOCAL_DIR), WATCH_VARS (another vars file), WATCH_BATCHES (instead of 5).
S=${WATCH_AB_SCRATCH:-/tmp/r21}
V=$(cat ${WATCH_VARS:-$S/vars.json})
for arg in "$@"; do
  ROOT=${arg%%:*}; first=${arg##*:}
  IN=$S/inbox; rm -rf $IN; for f in dataworks datahub_tuple canal debezium shareplex; do mkdir -p $IN/$f; done
  LOG=$S/watch-ab-$(basename $ROOT)-$first${TAG}.log
  (cd $ROOT && exec /work/main/.venv/bin/python ${ENTRY:--m python_udfs.pipeline.cli} --project-dir $ROOT watch $(for f in dataworks datahub_tuple canal debezium shareplex; do echo $IN/$f; done) --interval 0.2 --settle 0 --dbt-arg=--vars "--dbt-arg=$V" ${EXTRA_ARGS}) > $LOG 2>&1 &
  WP=$!
  until grep -q "warm-up:" $LOG; do sleep 1; done
  for i in $(seq 0 $((${WATCH_BATCHES:-5}-1))); do
    n=$((first+i)); H=$S/hold; rm -rf $H
    for f in dataworks datahub_tuple canal debezium shareplex; do mkdir -p $H/$f
      for p in $(find $S/stream/batch-$n/$f -name '*.jsonl'); do cp $p $H/$f/b$n-$(basename $(dirname $p))-$(basename $p); done
    done
    for f in dataworks datahub_tuple canal debezium shareplex; do mv $H/$f/* $IN/$f/; done
    until [ $(grep -c "^batch " $LOG) -gt $((i+1)) ]; do sleep 0.2; done
  done
  kill $WP; wait $WP 2>/dev/null
  echo "$(basename $ROOT) $(grep '^batch ' $LOG | tail -${WATCH_BATCHES:-5} | sed -E 's/.*landed ([0-9]+) messages.* in ([0-9.]+) s, built in ([0-9.]+) s.*/\1:\2+\3/' | tr '\n' ' ') load $(cut -d' ' -f1-3 /proc/loadavg)"
done
