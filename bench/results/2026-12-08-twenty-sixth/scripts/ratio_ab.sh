#!/bin/bash
# The same 12 batches into the same 1M warehouse (restored from one snapshot before each arm),
# compaction at the default delta ratio 0.1 against 0.03.
set -u
L=/work/main/bench/work/runs/main/cdc_local
rm -rf /tmp/r26/snap; cp -a $L /tmp/r26/snap
export WATCH_AB_SCRATCH=/tmp/r26 WATCH_LOCAL=$L WATCH_BATCHES=12
echo "$(date +%T) start load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in 0.1 0.03; do
  rm -rf $L; cp -a /tmp/r26/snap $L
  WATCH_VARS=/tmp/r26/vars-main-ratio$r.json TAG=-ratio$r bash /work/main/bench/results/2026-12-07-twenty-first/scripts/watch_ab.sh /work/main:1960 | sed "s/^/ratio $r: /"
done
echo "$(date +%T) done"
