# Two test files on the suite's two workers, with each worker's Spark on local[1] and on
# local[2] (CDC_SPARK_CORES), in a row: wall and CPU (user+sys of every process) per run.
cd /work/main
export DBT_PROFILES_DIR=$PWD/profiles CDC_LOCAL_DIR=$PWD/.cdc_local SPARK_LOCAL_IP=127.0.0.1
for cores in ${CORES:-2 1}; do
  l=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "CDC_SPARK_CORES=$cores: wall %e s, cpu %U+%S s" env CDC_SPARK_CORES=$cores \
    .venv/bin/python -m pytest -n 2 --dist loadfile -q -p no:cacheprovider \
    tests/pytest/test_nothing_new.py tests/pytest/test_datastream_pipeline.py 2>&1 | tail -2
  echo "  (load at start $l, at end $(cut -d' ' -f1 /proc/loadavg))"
done
