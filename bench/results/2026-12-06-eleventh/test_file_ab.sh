#!/bin/bash
# $1 = label, $2 = checkout, rest = test files
label=$1; co=$2; shift 2
cd $co
export DBT_PROFILES_DIR=$co/profiles SPARK_LOCAL_IP=127.0.0.1
unset CDC_LOCAL_DIR
rm -rf /tmp/s16/ab-$label
s=$(date +%s.%N)
/work/main/.venv/bin/python -m pytest -n 0 -q -p no:cacheprovider --basetemp /tmp/s16/ab-$label "$@" > /tmp/s16/ab-$label.log 2>&1
rc=$?
e=$(date +%s.%N)
echo "$label rc=$rc seconds=$(echo "$e - $s" | bc) load=$(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s16/ab.txt
