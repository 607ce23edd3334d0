#!/bin/bash
# main scenario, after/before/before/after
set -u
export DBT_PROFILES_DIR=/work/main/profiles SPARK_LOCAL_IP=127.0.0.1
i=0
for arm in after before before after; do
  i=$((i+1))
  root=/work/main; [ $arm = before ] && root=/tmp/r26/wt-before
  echo "$(date +%T) run $i $arm load $(cut -d' ' -f1-3 /proc/loadavg)"
  (cd $root && /work/main/.venv/bin/python -m bench.run --only main --sizes 1000000 --keep-streams --fresh --work /work/main/bench/work --results /tmp/r26/main-$i-$arm > /tmp/r26/main-$i-$arm.log 2>&1)
  grep -h "incremental (\|full build (" /tmp/r26/main-$i-$arm/*.md
done
echo "$(date +%T) done load $(cut -d' ' -f1-3 /proc/loadavg)"
