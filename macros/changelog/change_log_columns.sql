{# The columns of `change_log`, in order (docs/canonical-contract.md). #}
{% macro change_log_columns() %}
    {{ return([
        'change_id', 'source_format', 'source_system', 'source_database', 'source_schema',
        'source_table', 'table_id', 'operation', 'vendor_operation', 'primary_key_columns',
        'row_key', 'row_key_kind', 'previous_row_key', 'before', 'after', 'after_is_partial',
        'column_types', 'committed_at', 'captured_at', 'landed_at', 'source_position',
        'sort_key', 'transaction_id', 'source_metadata', 'key_bucket', 'message_id',
        'row_index', 'raw_relation', 'stream_name', 'origin', 'origin_partition',
        'origin_offset', 'landing_batch_id',
    ]) }}
{% endmacro %}


{# The columns of `schema_changes`, in order. #}
{% macro schema_changes_columns() %}
    {{ return([
        'schema_change_id', 'source_format', 'source_system', 'source_database',
        'source_schema', 'source_table', 'table_id', 'operation', 'vendor_operation',
        'clears_table', 'ddl_text', 'ddl_meta_decoded', 'ddl_meta_error', 'statement_kind',
        'new_table_name', 'columns_defined', 'primary_key_defined', 'columns_added',
        'columns_dropped', 'columns_changed', 'committed_at', 'captured_at', 'landed_at',
        'source_position', 'sort_key', 'transaction_id', 'source_metadata', 'message_id',
        'raw_relation', 'stream_name', 'origin', 'origin_partition', 'origin_offset',
        'landing_batch_id',
    ]) }}
{% endmacro %}


{# The columns of `quarantine` (and `quarantine_open`), in order. #}
{% macro quarantine_columns() %}
    {{ return([
        'quarantine_id', 'source_format', 'reason_code', 'reason_detail', 'vendor_operation',
        'table_id', 'raw_value', 'message_id', 'row_index', 'raw_relation', 'stream_name',
        'origin', 'origin_partition', 'origin_offset', 'landed_at', 'landing_batch_id',
    ]) }}
{% endmacro %}
