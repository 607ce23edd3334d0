#!/bin/bash
set -u
export DBT_PROFILES_DIR=/work/main/profiles SPARK_LOCAL_IP=127.0.0.1
for i in 1 2 3 4; do
  arm=default; [ $i = 1 -o $i = 4 ] && arm=codegen
  echo "$(date +%T) run $i $arm load $(cut -d' ' -f1-3 /proc/loadavg)"
  if [ $arm = codegen ]; then export CDC_WHOLE_STAGE_CODEGEN=true CDC_CODEGEN_FACTORY_MODE=FALLBACK; else unset CDC_WHOLE_STAGE_CODEGEN CDC_CODEGEN_FACTORY_MODE; fi
  (cd /work/main && .venv/bin/python -m bench.run --only main --sizes 1000000 --keep-streams --fresh --work /work/main/bench/work --results /tmp/r26/cg-$i-$arm > /tmp/r26/cg-$i-$arm.log 2>&1)
  grep -h "incremental (\|full build (" /tmp/r26/cg-$i-$arm/*.md
  python3 -c "
import json,glob;d=json.load(open(glob.glob('/tmp/r26/cg-$i-$arm/*.json')[0]));m=d['results']['main']['increment_models']
print(' '.join(f'{k[:22]}={v}' for k,v in m.items() if v>0.3))"
done
echo "$(date +%T) done load $(cut -d' ' -f1-3 /proc/loadavg)"
