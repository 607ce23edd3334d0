cd /work/main
export DBT_PROFILES_DIR=$PWD/profiles CDC_LOCAL_DIR=$PWD/.cdc_local SPARK_LOCAL_IP=127.0.0.1
for th in 1 2; do
  s=$(date +%s); l=$(cut -d' ' -f1 /proc/loadavg)
  CDC_THREADS=$th .venv/bin/python -m pytest -n 2 --dist loadfile -q -p no:cacheprovider tests/pytest/test_nothing_new.py tests/pytest/test_datastream_pipeline.py 2>&1 | tail -1
  echo "CDC_THREADS=$th: $(( $(date +%s) - s )) s (load at start $l, at end $(cut -d' ' -f1 /proc/loadavg))"
done
