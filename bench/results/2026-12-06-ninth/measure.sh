#!/bin/bash
# measure.sh LABEL: runs run_cs.sh, prints wall, JVM cpu, JIT compile seconds (last sample)
label=$1
s=$(date +%s.%N)
"$(dirname "$0")"/run_cs.sh > /tmp/m_$label.log 2>&1 &
top=$!
jc=0; cpu=0; n=0
while kill -0 $top 2>/dev/null; do
  p=$(pgrep -P $top -f "bin/java" | head -1)
  [ -z "$p" ] && p=$(pgrep -f "bin/java -cp.*" -n)
  if [ -n "$p" ]; then
    v=$(jstat -compiler $p 2>/dev/null | tail -1 | awk '{print $1, $4}'); [ -n "$v" ] && jc="$v"
    c=$(awk '{print ($14+$15)/100}' /proc/$p/stat 2>/dev/null); [ -n "$c" ] && cpu=$c
  fi
  sleep 2
done
e=$(date +%s.%N)
echo "$label wall=$(echo "$e - $s" | bc) jvm_cpu=$cpu compiled,jit_s=$jc $(grep -E 'passed|failed' /tmp/m_$label.log | tail -1)"
