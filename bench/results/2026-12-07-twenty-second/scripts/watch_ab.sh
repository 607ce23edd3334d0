#!/bin/bash
# The twenty-first session's paired watch A/B (its header says what it measures), on this
# session's scratch folder: /tmp/r22/{vars.json,stream/batch-N}; logs in /tmp/r22/.
WATCH_AB_SCRATCH=/tmp/r22 exec bash /work/main/bench/results/2026-12-07-twenty-first/scripts/watch_ab.sh "$@"
