#!/bin/bash
# paired warm-watch runs: A = /work/main (local fs), B = /work/wt_base (before)
for i in 1 2; do
  (cd /work/main && LAST=8 /work/main/.venv/bin/python /work/exp/s29/warm.py A$i > /work/exp/s29/A$i.log 2>&1)
  (cd /work/wt_base && LAST=8 /work/wt_base/.venv/bin/python /work/exp/s29/warm.py B$i /work/wt_base > /work/exp/s29/B$i.log 2>&1)
done
