#!/bin/bash
# watch A/B of spark.sql.files.openCostInBytes, Spark's 4 MiB against 128 KiB (profiles.yml reads
# CDC_OPEN_COST for this experiment only)
cd /work/main
for spec in 4194304:130 131072:135 131072:140 4194304:145; do
  a=${spec%%:*}; b=${spec##*:}
  CDC_OPEN_COST=$a TAG=-opencost-$a bash /work/main/bench/results/2026-12-07-twenty-third/scripts/watch_ab2.sh /work/main:$b | sed "s/^main/openCost=$a/"
done
