#!/bin/bash
for side in old new; do
  dir=/tmp/ab15/old; [ $side = new ] && dir=/work/main
  echo "small $side start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab15/ab.log
  (cd $dir && /work/main/.venv/bin/python -m bench.run --only small --small-reps 1 --small-steady 4 --work /work/main/bench/work --results /tmp/ab15/small-$side --fresh --keep-streams > /tmp/ab15/small-$side.out 2>&1)
  echo "small $side end $(date -u +%T) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab15/ab.log
done
