#!/bin/bash
# warm watches on the 1M warehouse: generated code always on against the default (off for a small batch)
export WATCH_AB_SCRATCH=/tmp/r26 WATCH_LOCAL=/work/main/bench/work/runs/main/cdc_local WATCH_VARS=/tmp/r26/vars-main.json
echo "$(date +%T) start load $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
for arm in on off off on; do
  n=$((1920 + 5 * i)); i=$((i+1))
  if [ $arm = on ]; then export CDC_WHOLE_STAGE_CODEGEN=true CDC_CODEGEN_FACTORY_MODE=FALLBACK; else unset CDC_WHOLE_STAGE_CODEGEN CDC_CODEGEN_FACTORY_MODE; fi
  TAG=-main-cg-$arm bash /work/main/bench/results/2026-12-07-twenty-first/scripts/watch_ab.sh /work/main:$n | sed "s/^/$arm /"
done
echo "$(date +%T) done"
