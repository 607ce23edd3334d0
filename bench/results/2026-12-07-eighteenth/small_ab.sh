#!/bin/bash
# small-batch figures: old (e0054b1, before the change, worktree /tmp/oldwt) then new (main), in a row
for side in old new; do
  dir=/tmp/oldwt; [ $side = new ] && dir=/work/main
  echo "small $side start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab18/ab-small.log
  (cd $dir && PYTHONPATH=$dir /work/main/.venv/bin/python -m bench.run --only small --small-reps 1 --small-steady 6 --work /work/main/bench/work --results /tmp/ab18/small-$side --fresh --keep-streams > /tmp/ab18/small-$side.out 2>&1)
  echo "small $side end $(date -u +%T) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab18/ab-small.log
done
