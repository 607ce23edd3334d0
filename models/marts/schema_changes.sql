{{
    config(
        materialized='incremental',
        incremental_strategy='append',
    )
}}

-- One row per DDL event (and per truncate / dropped table, which also act on current_state).
-- DataWorks ddlMeta is decoded by the Python UDF cdc_decode_ddl_meta, so this is a table.
{%- set window = read_window() %}
{%- if staged_events_none_since(['schema_change', 'truncate'], window) %}
-- no DDL or truncate in the read window: the statement is skipped
{{ cdc_nothing_in_window_marker() }}
{%- endif %}
with ddl_events as (
    {{ staged_events_since(['schema_change', 'truncate'], window) }}
),

-- (when no event in the read window carries a ddlMeta, the UDF is left out: no Python worker
-- is started for a batch whose DDL comes from other formats)
decoded as (
    select
        ddl_events.*,
        {%- if window_events_carry_ddl_meta(['schema_change', 'truncate'], window) %}
            cdc_decode_ddl_meta(ddl_meta) as ddl_meta_result
        {%- else %}
            cast(null as struct<decoded_json: string, error: string>) as ddl_meta_result
        {%- endif %}
    from ddl_events
),

parsed as (
    select
        decoded.*,
        from_json(
            ddl_meta_result.decoded_json,
            'struct<statement_kind: string, statement_class: string, db_type: string,
                schema_name: string, table_name: string, new_table_name: string,
                columns: array<struct<name: string, type: string>>,
                primary_key: array<string>,
                columns_added: array<struct<name: string, type: string>>,
                columns_dropped: array<string>,
                columns_changed: array<struct<name: string, new_name: string, type: string>>>'
        ) as ddl
    from decoded
),

shaped as (
    select
        {{ schema_change_id() }} as schema_change_id,
        source_format,
        source_system,
        source_database,
        source_schema,
        source_table,
        table_id,
        operation,
        vendor_operation,
        event_class = 'truncate' as clears_table,
        ddl_text,
        ddl_meta_result.decoded_json as ddl_meta_decoded,
        ddl_meta_result.error as ddl_meta_error,
        ddl.statement_kind,
        ddl.new_table_name,
        coalesce(ddl.columns, array()) as columns_defined,
        coalesce(ddl.primary_key, array()) as primary_key_defined,
        coalesce(ddl.columns_added, array()) as columns_added,
        coalesce(ddl.columns_dropped, array()) as columns_dropped,
        coalesce(ddl.columns_changed, array()) as columns_changed,
        committed_at,
        captured_at,
        landed_at,
        source_position,
        sort_key,
        transaction_id,
        source_metadata,
        message_id,
        raw_relation,
        stream_name,
        origin,
        origin_partition,
        origin_offset,
        landing_batch_id
    from parsed
),

new_schema_changes as (
    {{ new_rows_only('shaped', 'schema_change_id', 'sort_key') }}
)

select
    {{ schema_changes_columns() | join(',\n    ') }}
from new_schema_changes
