#!/bin/bash
# The twenty-first session's paired watch A/B (its header says what it measures and which
# variables it takes: ENTRY, EXTRA_ARGS, TAG), on this session's scratch folder:
# /tmp/r23/{vars.json,stream/batch-N}; logs in /tmp/r23/.
WATCH_AB_SCRATCH=/tmp/r23 exec bash /work/main/bench/results/2026-12-07-twenty-first/scripts/watch_ab.sh "$@"
