#!/bin/bash
export WATCH_AB_SCRATCH=/tmp/r26 WATCH_LOCAL=/work/main/bench/work/runs/main/cdc_local WATCH_VARS=/tmp/r26/vars-main.json TAG=-main
echo "$(date +%T) start load $(cut -d' ' -f1-3 /proc/loadavg)"
bash /work/main/bench/results/2026-12-07-twenty-first/scripts/watch_ab.sh /work/main:1900 /tmp/r26/wt-before:1905 /tmp/r26/wt-before:1910 /work/main:1915
echo "$(date +%T) done"
