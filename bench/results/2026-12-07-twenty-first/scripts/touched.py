"""Micro-experiment: the layers models' touched-row read, outer join vs semi join."""
import os, sys, time
sys.path.insert(0, "/work/main")
from pathlib import Path
from python_udfs.pipeline import cli
PROJECT = Path("/work/main")
cli.environment_defaults(PROJECT)
cli.run_dbt(PROJECT, ["run-operation", "create_landing_tables", "--vars", '{"cdc_landing_schema": "bench_landing"}'])
spark = cli.spark_session()
mode = sys.argv[1]
if mode == "interp":
    spark.conf.set("spark.sql.codegen.wholeStage", "false"); spark.conf.set("spark.sql.codegen.factoryMode", "NO_CODEGEN")
for t in ("int_row_history_layers", "int_current_state_layers"):
    rel = f"bench_staging.{t}"
    spark.sql(f"select distinct xxhash64(table_id, row_key) as key_hash from {rel} where state_layer='base' and rand(7) < 0.01").createOrReplaceTempView("touched_keys")
    spark.sql("select cast(null as string) as table_id where false" if os.environ.get("CLEARED") is None else f"select '{os.environ['CLEARED']}' as table_id").createOrReplaceTempView("cleared_tables")
    current = f"""select delta_rows.* from {rel} as delta_rows where delta_rows.state_layer = 'delta' and delta_rows.table_id is not null
      union all select /*+ broadcast(delta_keys) */ base_rows.* from {rel} as base_rows left anti join (
        select distinct changed.table_id, changed.row_key from {rel} as changed where changed.state_layer = 'delta' and changed.table_id is not null) as delta_keys
        on base_rows.table_id = delta_keys.table_id and base_rows.row_key = delta_keys.row_key where base_rows.state_layer = 'base'"""
    outer = f"""select /*+ broadcast(touched_keys, cleared_tables) */ current_rows.*, touched_keys.key_hash is not null or cleared_tables.table_id is not null as is_touched
      from ({current}) as current_rows left join touched_keys on xxhash64(current_rows.table_id, current_rows.row_key) = touched_keys.key_hash
      left join cleared_tables on current_rows.table_id = cleared_tables.table_id
      where current_rows.state_layer = 'delta' or touched_keys.key_hash is not null or cleared_tables.table_id is not null"""
    semi = f"""select /*+ broadcast(touched_keys, cleared_tables) */ delta_rows.*, touched_keys.key_hash is not null or cleared_tables.table_id is not null as is_touched
      from {rel} as delta_rows left join touched_keys on xxhash64(delta_rows.table_id, delta_rows.row_key) = touched_keys.key_hash
      left join cleared_tables on delta_rows.table_id = cleared_tables.table_id
      where delta_rows.state_layer = 'delta' and delta_rows.table_id is not null
      union all
      select /*+ broadcast(delta_keys, touched_keys) */ base_rows.*, true as is_touched from {rel} as base_rows
      left anti join (select distinct changed.table_id, changed.row_key from {rel} as changed where changed.state_layer = 'delta' and changed.table_id is not null) as delta_keys
        on base_rows.table_id = delta_keys.table_id and base_rows.row_key = delta_keys.row_key
      left semi join touched_keys on xxhash64(base_rows.table_id, base_rows.row_key) = touched_keys.key_hash
      where base_rows.state_layer = 'base'
      union all
      select /*+ broadcast(delta_keys, cleared_tables, touched_keys) */ base_rows.*, true as is_touched from {rel} as base_rows
      left anti join (select distinct changed.table_id, changed.row_key from {rel} as changed where changed.state_layer = 'delta' and changed.table_id is not null) as delta_keys
        on base_rows.table_id = delta_keys.table_id and base_rows.row_key = delta_keys.row_key
      left semi join cleared_tables on base_rows.table_id = cleared_tables.table_id
      left anti join touched_keys on xxhash64(base_rows.table_id, base_rows.row_key) = touched_keys.key_hash
      where base_rows.state_layer = 'base'"""
    for rep in range(3):
        for name, q in (("outer", outer), ("semi", semi)):
            df = spark.sql(q)
            s = time.perf_counter(); n = df.count() if rep == 0 else None
            if rep: df.write.format("noop").mode("overwrite").save()
            print(f"{mode} {t} {name} rep{rep} {'count='+str(n) if n is not None else ''} {time.perf_counter()-s:.2f} s", flush=True)
