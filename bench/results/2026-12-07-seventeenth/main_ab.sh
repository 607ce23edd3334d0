#!/bin/bash
# 1M mixed: old (34246f6, worktree /tmp/oldwt) then new (main), in a row, on the kept stream
for side in old new; do
  dir=/tmp/oldwt; [ $side = new ] && dir=/work/main
  echo "main $side start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab17/ab-main.log
  (cd $dir && PYTHONPATH=$dir /work/main/.venv/bin/python -m bench.run --only main --sizes 1000000 --work /work/main/bench/work --results /tmp/ab17/main-$side --fresh --keep-streams > /tmp/ab17/main-$side.out 2>&1)
  echo "main $side end $(date -u +%T) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/ab17/ab-main.log
done
