#!/bin/bash
# paired warm watches on the small scenario's warehouse: after (HEAD), before (f322788), before, after
export WATCH_AB_SCRATCH=/tmp/r26 TAG=-small
echo "$(date +%T) start load $(cut -d' ' -f1-3 /proc/loadavg)"
bash /work/main/bench/results/2026-12-07-twenty-first/scripts/watch_ab.sh /work/main:1940 /tmp/r26/wt-before:1945 /tmp/r26/wt-before:1950 /work/main:1955
echo "$(date +%T) done"
