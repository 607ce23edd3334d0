#!/bin/bash
# 1M mixed: the 64 KiB dictionaries (working tree) against 57199bb (the worktree), one after the other
# old: a worktree of 57199bb (git -C /tmp/ab16/old checkout --detach 57199bb); the second pair ran "old new"
for side in new old; do
  dir=/tmp/ab16/old; [ $side = new ] && dir=/work/main
  echo "$side start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab16/ab-dict.log
  (cd $dir && /work/main/.venv/bin/python -m bench.run --only main --sizes 1000000 --work /work/main/bench/work --results /tmp/ab16/dict-$side --fresh --keep-streams > /tmp/ab16/dict-$side.out 2>&1)
  echo "$side end $(date -u +%T) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab16/ab-dict.log
done
