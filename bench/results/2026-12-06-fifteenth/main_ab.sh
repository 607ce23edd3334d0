#!/bin/bash
# 1M mixed main scenario: old (77dafe7) then new (c75506d), one after the other
for side in old new; do
  dir=/tmp/ab15/old; [ $side = new ] && dir=/work/main
  echo "$side start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab15/ab.log
  (cd $dir && /work/main/.venv/bin/python -m bench.run --only main --sizes 1000000 --work /work/main/bench/work --results /tmp/ab15/res-$side --fresh --keep-streams > /tmp/ab15/$side.out 2>&1)
  echo "$side end $(date -u +%T) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab15/ab.log
done
