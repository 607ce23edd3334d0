#!/bin/bash
# The small-batch figures (targets 4, 5): old (574dfdf, the session's start, a worktree) then new (main), in a row
for side in old new; do
  dir=/tmp/ab16/old; [ $side = new ] && dir=/work/main
  echo "small $side start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab16/ab-small.log
  (cd $dir && /work/main/.venv/bin/python -m bench.run --only small --small-reps 1 --small-steady 4 --work /work/main/bench/work --results /tmp/ab16/small-$side --fresh --keep-streams > /tmp/ab16/small-$side.out 2>&1)
  echo "small $side end $(date -u +%T) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab16/ab-small.log
done
