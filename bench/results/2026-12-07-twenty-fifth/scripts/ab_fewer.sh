#!/bin/bash
# Paired warm watches on the small warehouse: the checkpoint as it is (XP_NO_FEWER=1, a switch the
# experiment's adapter had in _fewer_partitions, not committed) and made fewer partitions, in the order before, after, after, before; 5 batches each from $1.
W=/work/main/bench/results/2026-12-07-twenty-first/scripts/watch_ab.sh; export WATCH_AB_SCRATCH=/tmp/r25 WATCH_BATCHES=5
n=${1:-0}
XP_NO_FEWER=1 TAG=-before bash $W /work/main:$n
TAG=-after bash $W /work/main:$((n+5))
TAG=-after bash $W /work/main:$((n+10))
XP_NO_FEWER=1 TAG=-before bash $W /work/main:$((n+15))
