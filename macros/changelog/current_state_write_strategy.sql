{#
    How current_state's and row_history's layers models are written: the single extension
    point for table formats. On parquet (the embedded default) they are partitioned by
    `state_layer` and written with `insert_overwrite`: a run rewrites the delta layer, a
    compaction both layers (state_write_layer). A `merge` strategy for Delta/Iceberg clusters is documented in
    docs/current-state.md (what it must guarantee) but not shipped untested.
#}
{% macro current_state_write_strategy() %}
    {{ return(var('cdc_state_write_strategy', 'insert_overwrite')) }}
{% endmacro %}
