#!/bin/bash
# 1M mixed: the session's start (574dfdf, a worktree) then main (fece005), in a row
for side in old new; do
  dir=/tmp/ab16/old; [ $side = new ] && dir=/work/main
  echo "final $side start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab16/ab-final.log
  (cd $dir && PYTHONPATH=$dir /work/main/.venv/bin/python -m bench.run --only main --sizes 1000000 --work /work/main/bench/work --results /tmp/ab16/final-$side --fresh --keep-streams > /tmp/ab16/final-$side.out 2>&1)
  echo "final $side end $(date -u +%T) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab16/ab-final.log
done
