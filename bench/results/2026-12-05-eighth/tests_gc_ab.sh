# Two test files on the suite's two workers, the workers' JVMs with the parallel collector
# (the default, -XX:+UseParallelGC) and with the serial one, in a row, twice (P S P S): wall.
cd /work/main
export DBT_PROFILES_DIR=$PWD/profiles CDC_LOCAL_DIR=$PWD/.cdc_local SPARK_LOCAL_IP=127.0.0.1
for gc in ${GCS:-ParallelGC SerialGC ParallelGC SerialGC}; do
  l=$(cut -d' ' -f1 /proc/loadavg)
  s=$(date +%s.%N)
  CDC_JVM_OPTIONS="-XX:+Use$gc" .venv/bin/python -m pytest -n 2 --dist loadfile -q -p no:cacheprovider \
    tests/pytest/test_nothing_new.py tests/pytest/test_datastream_pipeline.py 2>&1 | tail -1
  echo "$gc: wall $(echo "$(date +%s.%N) - $s" | bc) s (load at start $l, at end $(cut -d' ' -f1 /proc/loadavg))"
done
