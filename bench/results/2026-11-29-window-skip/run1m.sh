#!/bin/bash
# run1m.sh TAG [ENV=VAL ...]: the peer-canal scenario (land + build to current_state) in a fresh dir
tag=$1; shift
d=/work/exp/s28/m1/$tag
rm -rf $d; mkdir -p $d
python3 - "$d" <<'PY'
import json,sys
s=json.load(open('/work/exp/s26/bench/work/runs/peer-canal/scenario.json'))
s['work_dir']=sys.argv[1]; s['name']='m1'
json.dump(s,open(sys.argv[1]+'/scenario.json','w'))
PY
cd /work/main
export CDC_LOCAL_DIR=$d/cdc_local CDC_LOG4J_CONFIG=/work/main/profiles/log4j2.properties DBT_PROFILES_DIR=/work/main/profiles CDC_SCHEMA=bench CDC_DRIVER_MEMORY=8g SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON=/work/main/.venv/bin/python
env "$@" /work/main/.venv/bin/python -m bench.worker $d/scenario.json $d/result.json > $d/worker.log 2>&1
python3 -c "
import json; r=json.load(open('$d/result.json')); s=r['steps']
print('$tag', {k:v['seconds'] for k,v in s.items()}, {k:v for k,v in r['build_models'].items() if v>0.5}, r.get('verify',{}).get('ok'))"
