{#-
    Incremental runs that insert straight from the model's query.

    dbt-spark's incremental materialization creates a temporary view of the model's query,
    then inserts from that view. Spark keeps a temporary view as SQL text, so the query is
    analyzed twice (the view's schema, then the insert), and on a small batch that analysis
    is a large part of a model's time: creating the 19 views took 3.5 s of a 42 s warm build
    of a 1,000-message batch (bench/SUMMARY.md, 2026-11-27 night).

    So an incremental run of an existing table with the `append` or `insert_overwrite`
    strategy and `on_schema_change` 'ignore' (the default) runs one statement:

        insert into table <model> select <its columns> from (<the model's query>)
        insert overwrite table <model> partition (<partition_by>) select ... from (...)

    dbt-spark's own insert statement (dbt_spark_get_incremental_sql) with the query in place of
    the view. Everything else (first build, full refresh, a model that is a view now, Python
    models, other strategies, other `on_schema_change` settings, which compare the view's
    columns with the table's) runs dbt-spark's materialization unchanged.
-#}
{%- macro cdc_incremental_materialization() -%}
    {%- set strategy = config.get('incremental_strategy') or 'append' -%}
    {%- set on_schema_change = incremental_validate_on_schema_change(config.get('on_schema_change'), default='ignore') -%}
    {%- set existing_relation = load_relation(this) -%}
    {%- if model.language != 'sql' or existing_relation is none or not existing_relation.is_table
          or should_full_refresh() or strategy not in ('append', 'insert_overwrite')
          or on_schema_change != 'ignore' -%}
        {{ return(materialization_incremental_spark()) }}
    {%- endif -%}
    {#- (dynamic partition overwrite: the embedded and cluster profiles give the session it) -#}
    {%- if strategy == 'insert_overwrite' and config.get('partition_by')
          and not adapter.cdc_session_setting_is('spark.sql.sources.partitionOverwriteMode', 'dynamic') -%}
        {%- call statement() -%}
            set spark.sql.sources.partitionOverwriteMode = DYNAMIC
        {%- endcall -%}
    {%- endif -%}
    {{ run_hooks(pre_hooks) }}
    {#- dbt-spark's own insert (its columns, its partition clause), from the query itself -#}
    {%- set source -%}
        (
            {{ compiled_code }}
        ) as cdc_incremental_rows
    {%- endset -%}
    {%- call statement('main') -%}
        {{ dbt_spark_get_incremental_sql(strategy, source, this, existing_relation, none, none) }}
    {%- endcall -%}
    {#- an appended table that many small batches left in many small files: rewritten as a few
        (adapter.cdc_compact_small_files; vars cdc_compact_min_files, cdc_compact_file_bytes) -#}
    {%- if strategy == 'append' and not config.get('partition_by') -%}
        {%- do adapter.cdc_compact_small_files(this, var('cdc_compact_min_files', 16),
                                               var('cdc_compact_file_bytes', 134217728)) -%}
    {%- endif -%}
    {% do apply_grants(this, config.get('grants'), should_revoke(existing_relation, full_refresh_mode=false)) %}
    {% do persist_docs(this, model) %}
    {{ run_hooks(post_hooks) }}
    {{ return({'relations': [this]}) }}
{%- endmacro -%}
