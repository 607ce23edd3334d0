#!/bin/bash
# Paired warm watches, default JIT against C1 only (full, c1, c1, full), 5 batches each.
W=/work/main/bench/results/2026-12-07-twenty-first/scripts/watch_ab.sh
export WATCH_AB_SCRATCH=/tmp/r24; unset CDC_JIT
FULL="-XX:+UseParallelGC"; C1="-XX:+UseParallelGC -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=240m"
CDC_JVM_OPTIONS="$FULL" TAG=-full bash $W /work/main:${1:-660}
CDC_JVM_OPTIONS="$C1" TAG=-c1 bash $W /work/main:$((${1:-660}+5))
CDC_JVM_OPTIONS="$C1" TAG=-c1 bash $W /work/main:$((${1:-660}+10))
CDC_JVM_OPTIONS="$FULL" TAG=-full bash $W /work/main:$((${1:-660}+15))
