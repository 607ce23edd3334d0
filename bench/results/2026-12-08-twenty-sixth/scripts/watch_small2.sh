#!/bin/bash
export WATCH_AB_SCRATCH=/tmp/r26 TAG=-small
while pgrep -f watch_small.sh >/dev/null; do sleep 2; done
echo "$(date +%T) start load $(cut -d' ' -f1-3 /proc/loadavg)"
bash /work/main/bench/results/2026-12-07-twenty-first/scripts/watch_ab.sh /work/main:1960
echo "$(date +%T) done"
