{{ config(enabled=('datahub_tuple' in var('cdc_formats'))) }}

-- One row per landed DataHub Tuple record: inserts, deletes and update halves (paired by
-- _sequence_id_ downstream), and invalid records with a reason.
-- Flow, one CTE per step: new_messages -> parsed -> fields -> classified -> shaped ->
--    events -> contract_rows
-- Its operation codes: seeds/cdc_operation_codes.csv (the operation_codes CTE); its value
-- conversions and other vocabulary: macros/formats/datahub_tuple.sql.
{%- set read_plan = staging_read_plan('datahub_tuple') %}
{%- set meta_columns = datahub_tuple__meta_columns() %}
with new_messages as (
    {{ new_landed_messages('datahub_tuple', read_plan) }}
),

parsed as (
    select
        new_messages.*,
        from_json(new_messages.raw_value, '{{ datahub_tuple__message_schema() }}') as record,
        try_parse_json(new_messages.raw_value) as variant_value
    from new_messages
),

fields as (
    select
        parsed.*,
        record['_operation_type_'] as vendor_operation,
        {{ datahub_tuple__flag_is_set("record['_before_image_']") }} as is_before_image,
        {{ datahub_tuple__flag_is_set("record['_after_image_']") }} as is_after_image,
        coalesce(record['_excute_time_'], record['_execute_time_']) as execute_time,
        coalesce(nullif(record['_source_table_'], ''), stream_name) as table_name,
        map_filter(
            record,
            (column_name, value) -> not array_contains(
                array(
                    {%- for c in meta_columns %}
                        '{{ c }}'{{ "," if not loop.last }}
                    {%- endfor %}
                ),
                column_name
            )
        ) as image
    from parsed
),

operation_codes as (
    {{ operation_codes('datahub_tuple') }}
),

-- I -> insert; D -> delete; U -> one half of an update (paired by _sequence_id_), the half
-- its image flag names (a `U` with neither flag is an unknown operation).
classified as (
    select
        fields.*,
        case
            when operation_codes.code_event_class = 'update_half' and not (is_before_image or is_after_image)
                then null
            else operation_codes.code_event_class
        end as event_class_raw,
        case
            when operation_codes.code_event_class = 'update_half' and is_before_image then 'update_before'
            when operation_codes.code_event_class = 'update_half' and is_after_image then 'update_after'
            else operation_codes.code_operation
        end as operation,
        {{ declared_key_columns('table_name') }} as declared_keys
    from fields
    left join operation_codes
        on fields.vendor_operation = operation_codes.operation_code
),

shaped as (
    select
        classified.*,
        case when operation in ('delete', 'update_before') then image end as before,
        case when operation in ('insert', 'update_after') then image end as after,
        {{ row_key_columns('declared_keys', 'image') }}
    from classified
),

events as (
    select
        shaped.*,
        case
            when record is null and variant_value is null then 'not_json'
            when record is null then 'type_clash'
            when vendor_operation is null then 'missing_operation'
            when operation is null then 'unknown_operation'
            when table_name is null then 'missing_table'
            when not {{ is_sort_key_number("record['_sequence_id_']") }} then 'missing_position'
        end as quarantine_reason
    from shaped
),

-- The contract columns DataHub's records carry, in their terms (the rest: staged_event_columns).
contract_rows as (
    select
        events.*,
        case
            when size(split(table_name, '\\.')) > 1 then element_at(split(table_name, '\\.'), -2)
        end as source_database,
        element_at(split(table_name, '\\.'), -1) as source_table,
        table_name as table_id,
        false as after_is_partial,
        transform_values(image, (column_name, value) -> 'string') as column_types,
        {{ datahub_tuple__execute_time('execute_time') }} as committed_at,
        record['_sequence_id_'] as source_position,
        concat(
            {{ sort_key_number("record['_sequence_id_']") }},
            case when operation = 'update_before' then '0' else '1' end,
            {{ landing_order_key('0') }}
        ) as sort_key,
        case when event_class_raw = 'update_half' then record['_sequence_id_'] end as pairing_key,
        map('before_image', record['_before_image_'], 'after_image', record['_after_image_']) as source_metadata
    from events
)

select
    {{ staged_event_columns('contract_rows', 'datahub_tuple', absent=[
        'source_system', 'source_schema', 'previous_row_key', 'captured_at', 'transaction_id', 'ddl_text', 'ddl_meta'
    ]) }}
from contract_rows
