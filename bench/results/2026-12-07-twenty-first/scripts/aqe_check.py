"""Does adaptive execution drop the cleared-tables branch when no table is cleared?"""
import os, sys
sys.path.insert(0, "/work/main")
from pathlib import Path
from python_udfs.pipeline import cli
cli.environment_defaults(Path("/work/main"))
cli.run_dbt(Path("/work/main"), ["run-operation", "create_landing_tables", "--vars", '{"cdc_landing_schema": "bench_landing"}'])
spark = cli.spark_session()
rel = "bench_staging.int_row_history_layers"
spark.sql(f"select distinct xxhash64(table_id, row_key) as key_hash from {rel} where state_layer='base' and rand(7) < 0.01").createOrReplaceTempView("touched_keys")
spark.sql("select distinct table_id from bench.schema_changes where clears_table and landed_at > current_timestamp()").createOrReplaceTempView("cleared_tables")
q = f"""select /*+ broadcast(cleared_tables, touched_keys) */ base_rows.*, true as is_touched from {rel} as base_rows
  left semi join cleared_tables on base_rows.table_id = cleared_tables.table_id
  left anti join touched_keys on xxhash64(base_rows.table_id, base_rows.row_key) = touched_keys.key_hash
  where base_rows.state_layer = 'base'"""
df = spark.sql(q)
print("rows", len(df.collect()))
plan = df._jdf.queryExecution().executedPlan().toString()
print(plan[:3000])
