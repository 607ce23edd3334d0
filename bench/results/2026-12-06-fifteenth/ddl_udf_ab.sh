#!/bin/bash
# schema_changes' node time in the second build of test_ddl_without_ddl_meta_is_staged_without_the_python_udf,
# new model then old model (the UDF always called), in turn
cd /work/main
export DBT_PROFILES_DIR=$PWD/profiles CDC_LOCAL_DIR=$PWD/.cdc_local SPARK_LOCAL_IP=127.0.0.1
for round in 1 2; do
for side in new old; do
  if [ $side = old ]; then git show cd92a38:models/marts/schema_changes.sql > models/marts/schema_changes.sql; fi
  rm -rf /tmp/exp15/ab-$side-$round
  .venv/bin/python -m pytest -n 0 -q -p no:cacheprovider --basetemp /tmp/exp15/ab-$side-$round tests/pytest/test_nothing_new.py::test_ddl_without_ddl_meta_is_staged_without_the_python_udf > /tmp/exp15/ab-$side-$round.out 2>&1
  git checkout -q HEAD -- models/marts/schema_changes.sql 2>/dev/null; [ $side = old ] && cp /tmp/exp15/schema_changes.new.sql models/marts/schema_changes.sql
  t=$(grep -h "schema_changes \.*" /tmp/exp15/ab-$side-$round/*/logs/dbt.log | grep -o "in [0-9.]*s\]" | tail -1)
  echo "$side round $round: $(tail -1 /tmp/exp15/ab-$side-$round.out | cut -c1-40) schema_changes last build $t" >> /tmp/exp15/ddl_ab.txt
done; done
