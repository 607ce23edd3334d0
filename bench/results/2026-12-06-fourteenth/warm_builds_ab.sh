#!/bin/bash
# $1 = checkout: warm_builds_experiment.py (as tests/pytest/test_zz_experiment.py, removed after)
# run in one pytest process with its own basetemp; figures appended to /tmp/ab14/warm.txt
HERE=$(cd "$(dirname "$0")" && pwd)
cd $1 && cp "$HERE/warm_builds_experiment.py" tests/pytest/test_zz_experiment.py && \
DBT_PROFILES_DIR=$1/profiles CDC_LOCAL_DIR=/tmp/ab14/warm-local SPARK_LOCAL_IP=127.0.0.1 AB_OUT=/tmp/ab14/warm.txt \
/work/main/.venv/bin/python -m pytest -n 0 -q -p no:cacheprovider --basetemp /tmp/ab14/bt-$(basename $1) tests/pytest/test_zz_experiment.py > /tmp/ab14/warm-$(basename $1).log 2>&1
rc=$?; rm -f tests/pytest/test_zz_experiment.py; exit $rc
