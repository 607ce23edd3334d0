#!/bin/bash
# watch A/B of adaptive execution on/off (profiles.yml reads CDC_ADAPTIVE for this experiment)
cd /work/main
for spec in true:105 false:110 false:115 true:120; do
  a=${spec%%:*}; b=${spec##*:}
  CDC_ADAPTIVE=$a TAG=-aqe-$a bash /work/main/bench/results/2026-12-07-twenty-third/scripts/watch_ab2.sh /work/main:$b | sed "s/^main/aqe=$a/"
done
