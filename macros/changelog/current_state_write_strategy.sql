{#
    How current_state (and later row_history) is written: the single extension point for
    table formats. On parquet (the embedded default) the model is partitioned by key bucket and
    written with `insert_overwrite`: touched buckets are rebuilt from their prior rows plus the
    new changes. A `merge` strategy for Delta/Iceberg clusters is documented in
    docs/current-state.md (what it must guarantee) but not shipped untested.
#}
{% macro current_state_write_strategy() %}
    {{ return(var('cdc_state_write_strategy', 'insert_overwrite')) }}
{% endmacro %}
