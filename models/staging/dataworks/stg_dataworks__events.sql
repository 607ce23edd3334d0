{{ config(enabled=('dataworks' in var('cdc_formats'))) }}

-- One row per event of each landed DataWorks message: row changes, update halves,
-- DDL, truncates, transaction markers, heartbeats, and invalid messages with a reason.
-- Flow, one CTE per step: parsed -> fields -> classified -> shaped ->
--    keyed -> events -> contract_rows
-- Its vocabularies: seeds/cdc_operation_codes.csv and seeds/cdc_type_codes.csv (the
-- operation_codes and type_codes CTEs); its value conversions: macros/formats/dataworks.sql.
{%- set read_plan = staging_read_plan('dataworks') %}
-- DataWorks field types (`type`, upper-cased) -> canonical types, one map for the lambda below.
with type_codes as (
    {{ type_code_map('dataworks', 'type', 'type_names') }}
),

parsed as (
    {{ parsed_landed_messages('dataworks', read_plan, dataworks__message_schema()) }}
),

fields as (
    select
        parsed.*,
        message.payload.op as vendor_operation,
        -- a column entry without a name cannot be a map key (it would fail the run)
        map_from_entries(
            filter(
                transform(message.schema.dataColumn, c -> struct(c.name as name, upper(trim(c.type)) as type)),
                c -> c.name is not null
            )
        ) as vendor_types,
        message.payload.before.dataColumn as raw_before,
        message.payload.after.dataColumn as raw_after,
        {{ declared_key_columns(
            "concat_ws('.', message.schema.source.dbName, message.schema.source.schemaName,"
            ~ " message.schema.source.tableName)",
            ['message.schema.primaryKey']
        ) }} as declared_keys,
        message.payload.sequenceId as sequence_id
    from parsed
),

operation_codes as (
    {{ operation_codes('dataworks') }}
),

classified as (
    select
        fields.*,
        operation_codes.code_event_class as known_class,
        operation_codes.code_operation as known_operation
    from fields
    left join operation_codes
        on fields.vendor_operation = operation_codes.operation_code
),

-- An UPDATE_AFTER (or UPDATE) without a before image is the after half of a two-message
-- update; an UPDATE with only a before image is its before half. With both images it is
-- one update.
shaped as (
    select
        classified.*,
        case
            when vendor_operation in ('UPDATE_AFTER', 'UPDATE') and raw_before is null then 'update_half'
            when vendor_operation = 'UPDATE' and raw_after is null then 'update_half'
            else known_class
        end as event_class_raw,
        case
            when vendor_operation in ('UPDATE_AFTER', 'UPDATE') and raw_before is null then 'update_after'
            when vendor_operation = 'UPDATE' and raw_after is null then 'update_before'
            else known_operation
        end as operation,
        {{ dataworks__canonical_image('raw_before', 'vendor_types') }} as before,
        {{ dataworks__canonical_image('raw_after', 'vendor_types') }} as after
    from classified
),

keyed as (
    select
        shaped.*,
        case when operation in ('delete', 'update_before') then before else after end as key_image,
        {{ row_key_columns('declared_keys', 'key_image', before_image='before') }}
    from shaped
),

events as (
    select
        keyed.*,
        case
            when message._corrupt_record is not null
                then {{ unreadable_message_reason('raw_value', object_required=false) }}
            when vendor_operation is null then 'missing_operation'
            when known_class is null then 'unknown_operation'
            -- a DDL may name only the database (CREATE DATABASE, a QUERY): schema_changes
            -- (an empty name with no database or schema leaves no table_id either)
            when
                known_class in ('change', 'update_half', 'truncate')
                and (
                    message.schema.source.tableName is null
                    or nullif(concat_ws(
                        '.', message.schema.source.dbName, message.schema.source.schemaName,
                        message.schema.source.tableName
                    ), '') is null
                )
                then 'missing_table'
            -- without a sequenceId a change cannot be ordered, a half cannot be paired and
            -- a truncate would clear nothing
            when
                known_class in ('change', 'update_half', 'truncate')
                and not {{ is_sort_key_number('sequence_id') }} then 'missing_position'
            when operation in ('insert', 'update', 'update_after') and raw_after is null
                then 'missing_after_image'
            when operation in ('delete', 'update_before') and raw_before is null
                then 'missing_before_image'
        end as quarantine_reason
    from keyed
),

-- The contract columns DataWorks' messages carry, in their terms (the rest: staged_event_columns).
contract_rows as (
    select
        events.*,
        lower(message.schema.source.dbType) as source_system,
        message.schema.source.dbName as source_database,
        message.schema.source.schemaName as source_schema,
        message.schema.source.tableName as source_table,
        nullif(
            concat_ws(
                '.', message.schema.source.dbName, message.schema.source.schemaName, message.schema.source.tableName
            ),
            ''
        ) as table_id,
        false as after_is_partial,
        -- every declared column, and every image column (`string` when schema.dataColumn
        -- does not type it)
        case
            when vendor_types is not null or raw_before is not null or raw_after is not null then
                map_from_arrays(
                    array_distinct(concat(
                        coalesce(map_keys(vendor_types), array()),
                        coalesce(map_keys(raw_before), array()),
                        coalesce(map_keys(raw_after), array())
                    )),
                    transform(
                        array_distinct(concat(
                            coalesce(map_keys(vendor_types), array()),
                            coalesce(map_keys(raw_before), array()),
                            coalesce(map_keys(raw_after), array())
                        )),
                        column_name -> coalesce(
                            try_element_at(type_codes.type_names, vendor_types[column_name]), 'string'
                        )
                    )
                )
        end as column_types,
        {{ dataworks__event_time('message.payload.timestamp.eventTime') }} as committed_at,
        {{ dataworks__event_time('message.payload.timestamp.systemTime') }} as captured_at,
        message.payload.sequenceId as source_position,
        concat(
            {{ sort_key_number('message.payload.sequenceId') }},
            case when operation = 'update_before' then '0' else '1' end,
            {{ sort_key_number('message.payload.timestamp.eventTime') }},
            {{ landing_order_key('0') }}
        ) as sort_key,
        case when event_class_raw = 'update_half' then message.payload.sequenceId end as pairing_key,
        message.payload.ddl.text as ddl_text,
        message.payload.ddl.ddlMeta as ddl_meta,
        map(
            'scn', message.payload.scn,
            'checkpoint_time', message.payload.timestamp.checkpointTime,
            'db_version', message.schema.source.dbVersion,
            'format_version', message.version
        ) as source_metadata
    from events
    cross join type_codes
)

select
    {{ staged_event_columns('contract_rows', 'dataworks', absent=['transaction_id']) }}
from contract_rows
