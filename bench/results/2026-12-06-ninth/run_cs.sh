#!/bin/bash
# one test file in one process; $JVM: the worker JVM's options
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
export DBT_PROFILES_DIR=$PWD/profiles CDC_LOCAL_DIR=$PWD/.cdc_local SPARK_LOCAL_IP=127.0.0.1
export CDC_JVM_OPTIONS="-XX:+UseParallelGC $JVM"
d=$(mktemp -d)
exec .venv/bin/python -m pytest -q -s -p no:cacheprovider --basetemp $d ${FILES:-tests/pytest/test_checked_since.py}
