#!/bin/bash
# Paired warm watches on the small warehouse: the landing reading every text file with Spark
# (36b6b6f, a worktree) against reading a small batch in Python (the working tree), in the order
# before, after, after, before; 5 batches each from $1.
W=/work/main/bench/results/2026-12-07-twenty-first/scripts/watch_ab.sh; export WATCH_AB_SCRATCH=/tmp/r25 WATCH_BATCHES=5
n=${1:-0}
TAG=-before bash $W /tmp/r25/wt-before:$n
TAG=-after bash $W /work/main:$((n+5))
TAG=-after bash $W /work/main:$((n+10))
TAG=-before bash $W /tmp/r25/wt-before:$((n+15))
