#!/bin/bash
# 1M mixed main scenario: new (working tree) then old (HEAD), one after the other
# old: a worktree of HEAD (git worktree add /tmp/ab16/old HEAD); the second pair ran "old new"
for side in new old; do
  dir=/tmp/ab16/old; [ $side = new ] && dir=/work/main
  echo "$side start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab16/ab.log
  (cd $dir && /work/main/.venv/bin/python -m bench.run --only main --sizes 1000000 --work /work/main/bench/work --results /tmp/ab16/res-$side --fresh --keep-streams > /tmp/ab16/$side.out 2>&1)
  echo "$side end $(date -u +%T) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab16/ab.log
done
