{{ config(enabled=('dts_avro' in var('cdc_formats'))) }}

-- One row per landed DTS Avro record: a row change, a truncate or DDL, a transaction marker,
-- a heartbeat/checkpoint or other control record, or an invalid record with a reason.
-- Calls the Python UDF cdc_decode_dts_avro (a temporary function), so it is incremental,
-- never a view.
-- Flow, one CTE per step: new_messages -> decoded -> parsed -> classified -> keyed ->
--    events -> contract_rows
-- Its operation codes: seeds/cdc_operation_codes.csv (the operation_codes CTE); its value
-- conversions and other vocabulary: macros/formats/dts_avro.sql.
{%- set read_plan = staging_read_plan('dts_avro') %}
with new_messages as (
    {{ new_landed_messages('dts_avro', read_plan) }}
),

decoded as (
    select
        new_messages.*,
        cdc_decode_dts_avro(new_messages.raw_value) as decode_result
    from new_messages
),

parsed as (
    select
        decoded.*,
        from_json(decode_result.decoded_json, '{{ dts_avro__message_schema() | replace("\n", " ") }}') as record
    from decoded
),

operation_codes as (
    {{ operation_codes('dts_avro') }}
),

classified as (
    select
        parsed.*,
        case
            when
                record.operation = 'DDL' and record.tableName is not null
                and {{ dts_avro__ddl_operation('record.ddlText') }} in ('truncate', 'drop')
                then 'truncate'
            else operation_codes.code_event_class
        end as known_class,
        case
            when record.operation = 'DDL' then {{ dts_avro__ddl_operation('record.ddlText') }}
            else operation_codes.code_operation
        end as known_operation,
        nullif(concat_ws('.', record.databaseName, record.schemaName, record.tableName), '') as table_key
    from parsed
    left join operation_codes
        on parsed.record.operation = operation_codes.operation_code
),

keyed as (
    select
        classified.*,
        {{ declared_key_columns('table_key', ['record.primaryKeys']) }} as declared_keys,
        -- the key is read from the after image overlaid on the before image, so that an
        -- update whose after image lacks the key columns (EmptyObject NONE) keeps its row
        case
            when known_operation = 'delete' then record.before
            when known_operation = 'update' and record.before is not null and record.after is not null
                then map_concat(
                    map_filter(record.before, (column_name, value) -> not map_contains_key(record.after, column_name)),
                    record.after
                )
            else record.after
        end as key_image,
        coalesce(
            known_operation = 'update' and size(record.after) < size(record.fields),
            false
        ) as after_is_partial,
        {{ row_key_columns(
            'declared_keys', 'key_image', before_image='record.before', is_update="known_operation = 'update'"
        ) }}
    from classified
),

events as (
    select
        keyed.*,
        case
            when record is null then 'not_dts_avro'
            when known_class is null then 'unknown_operation'
            when known_class = 'change' and record.valueError like 'field_count_mismatch%' then 'field_count_mismatch'
            when known_class = 'change' and record.valueError is not null then 'undecodable_value'
            when known_class = 'change' and record.tableName is null then 'missing_table'
            when known_operation in ('insert', 'update', 'read') and not record.hasAfterImages
                then 'missing_after_image'
            when known_operation = 'delete' and not record.hasBeforeImages then 'missing_before_image'
            when record.operation = 'DDL' and record.ddlText is null then 'missing_ddl_text'
        end as quarantine_reason
    from keyed
),

-- The contract columns DTS records carry, in their terms (the rest: staged_event_columns).
contract_rows as (
    select
        events.*,
        known_class as event_class_raw,
        record.operation as vendor_operation,
        known_operation as operation,
        record.sourceSystem as source_system,
        record.databaseName as source_database,
        record.schemaName as source_schema,
        record.tableName as source_table,
        table_key as table_id,
        case when known_class = 'change' then record.before end as before,
        case when known_class = 'change' then record.after end as after,
        coalesce(record.columnTypes, cast(map() as map<string, string>)) as column_types,
        case
            when (
                known_class in ('change', 'schema_change', 'truncate')
                or record.operation in (
                    {%- for op in dts_avro__timed_control_operations() %}
                        '{{ op }}'{{ "," if not loop.last }}
                    {%- endfor %}
                )
            )
            and record.sourceTimestamp between 1 and 253402300799
                then timestamp_seconds(record.sourceTimestamp)
        end as committed_at,
        case
            when record.bornTimestamp between 1 and 253402300799999 then timestamp_millis(record.bornTimestamp)
        end as captured_at,
        cast(record.id as string) as source_position,
        concat(
            {{ sort_key_number('record.id') }},
            {{ sort_key_number("nullif(regexp_extract(record.sourcePosition, '([0-9]+)', 1), '')") }},
            {{ sort_key_number("nullif(regexp_extract(record.sourcePosition, '[0-9]+[^0-9]+([0-9]+)', 1), '')") }},
            {{ landing_order_key('0') }}
        ) as sort_key,
        nullif(record.sourceTxid, '') as transaction_id,
        case when record.operation = 'DDL' then record.ddlText end as ddl_text,
        map_concat(
            transform_keys(
                coalesce(record.tags, cast(map() as map<string, string>)),
                (tag, value) -> concat('tags.', tag)
            ),
            map(
                'version', cast(record.version as string),
                'sourceType', record.sourceType,
                'sourceVersion', record.sourceVersion,
                'objectName', record.objectName,
                'sourcePosition', record.sourcePosition,
                'safeSourcePosition', nullif(record.safeSourcePosition, ''),
                'sourceTimestamp', cast(record.sourceTimestamp as string),
                'bornTimestamp', cast(nullif(record.bornTimestamp, 0) as string),
                'processTimestamps', to_json(record.processTimestamps),
                'fields', to_json(record.fields),
                'fieldsText', record.fieldsText,
                'decode_error', decode_result.error,
                'value_error', record.valueError
            )
        ) as source_metadata
    from events
)

select
    {{ staged_event_columns('contract_rows', 'dts_avro', absent=['pairing_key', 'ddl_meta']) }}
from contract_rows
