{{ config(enabled=('canal' in var('cdc_formats'))) }}

-- One row per element of data[] of each landed Canal message (row changes), one row per DDL,
-- truncate, transaction marker or heartbeat, and invalid messages (or rows) with a reason.
-- Flow, one CTE per step: parsed -> fields -> classified -> typed ->
--    exploded -> shaped -> keyed -> events -> contract_rows
-- Its vocabularies: seeds/cdc_operation_codes.csv and seeds/cdc_type_codes.csv (the
-- operation_codes and sql_type_codes CTEs); its value conversions: macros/formats/canal.sql.
{%- set read_plan = staging_read_plan('canal') %}
-- java.sql.Types numbers (`sqlType`) -> canonical types, one map for the lambdas below.
with sql_type_codes as (
    {{ type_code_map('canal', 'sqlType', 'sql_type_names') }}
),

parsed as (
    {{ parsed_landed_messages('canal', read_plan, canal__message_schema()) }}
),

fields as (
    select
        parsed.*,
        message.type as vendor_operation,
        nullif(message.database, '') as database_name,
        nullif(message.`table`, '') as table_name,
        lower(trim(message.isDdl)) = 'true' as is_ddl,
        {{ canal__legacy_layout_condition('parsed.stream_name') }} as is_legacy_layout
    from parsed
),

operation_codes as (
    {{ operation_codes('canal') }}
),

-- DDL wins over the type: `isDdl` = true is a DDL whatever `type` says.
classified as (
    select
        fields.*,
        case
            when is_ddl and vendor_operation in ('TRUNCATE', 'ERASE', 'DROP') then 'truncate'
            when is_ddl then 'schema_change'
            else operation_codes.code_event_class
        end as known_class,
        -- a DDL code without an operation (`DDL`, `INIT_DDL`) takes it from its statement
        case
            when operation_codes.code_event_class in ('schema_change', 'truncate') then operation_codes.code_operation
            when is_ddl then null
            else operation_codes.code_operation
        end as known_operation,
        {{ canal__ddl_operation('message.sql') }} as statement_operation,
        -- Row images and the previous values of changed columns, in the documented layout
        -- (legacy DTS: `old` holds the rows, `data` the previous values of an UPDATE).
        case
            when is_legacy_layout then coalesce(message.old, message.data)
            else message.data
        end as row_images,
        case
            when is_legacy_layout and vendor_operation = 'UPDATE' then message.data
            when is_legacy_layout then cast(null as array<map<string, string>>)
            else message.old
        end as previous_values
    from fields
    left join operation_codes
        on fields.vendor_operation = operation_codes.operation_code
),

typed as (
    select
        classified.*,
        case
            when known_class in ('schema_change', 'truncate') and known_operation is null
                then statement_operation.event_class
            else known_class
        end as event_class_raw,
        case
            when known_class in ('schema_change', 'truncate') and known_operation is null
                then statement_operation.operation
            else known_operation
        end as operation,
        {{ declared_key_columns("concat_ws('.', database_name, table_name)", ['message.pkNames']) }}
            as declared_keys,
        -- Per message, before rows are exploded: what every row of the message shares.
        {{ canal__message_column_types(
            'message.mysqlType', 'message.sqlType', 'sql_type_codes.sql_type_names'
        ) }} as message_types,
        concat({{ sort_key_number('message.es') }}, {{ sort_key_number('message.id') }}) as position_sort_key,
        -- Problems of the whole message: one quarantine event, rows are not exploded.
        case
            when message._corrupt_record is not null then {{ unreadable_message_reason('raw_value') }}
            when vendor_operation is null and not coalesce(is_ddl, false) then 'missing_operation'
            when known_class is null then 'unknown_operation'
            when known_class in ('change', 'truncate') and table_name is null then 'missing_table'
            when known_class = 'schema_change' and table_name is null and database_name is null then 'missing_table'
            when
                known_class = 'change' and vendor_operation = 'DELETE' and not is_legacy_layout
                and coalesce(size(message.data), 0) <= 0 and size(message.old) > 0
                then 'legacy_layout'
            when known_class = 'change' and coalesce(size(row_images), 0) <= 0
                then case when vendor_operation = 'DELETE' then 'missing_before_image' else 'missing_after_image' end
        end as message_reason
    from classified
    cross join sql_type_codes
),

-- One event per element of data[] for valid row changes; one event for anything else.
-- Values of binary columns become Base64 of their ISO-8859-1 bytes.
exploded as (
    select
        typed.*,
        coalesce(row_position, 0) as row_index,
        {{ canal__binary_as_base64('raw_row_image', 'binary_columns') }} as row_image,
        {{ canal__binary_as_base64(
            'try_element_at(previous_values, coalesce(row_position, 0) + 1)', 'binary_columns'
        ) }} as previous_image
    from (
        select
            typed.*,
            {{ canal__binary_columns('message_types') }} as binary_columns
        from typed
    ) as typed
        lateral view outer posexplode(
            case when message_reason is null and event_class_raw = 'change' then row_images end
        ) as row_position, raw_row_image
),

shaped as (
    select
        exploded.*,
        case
            when operation = 'delete' then row_image
            when operation = 'update' then map_concat(
                row_image, coalesce(previous_image, cast(map() as map<string, string>))
            )
        end as before,
        case when operation in ('insert', 'update', 'read') then row_image end as after
    from exploded
),

keyed as (
    select
        shaped.*,
        {{ row_key_columns('declared_keys', 'row_image', before_image='before') }}
    from shaped
),

events as (
    select
        keyed.*,
        case
            when message_reason is not null then message_reason
            when event_class_raw = 'change' and row_image is null
                then case when operation = 'delete' then 'missing_before_image' else 'missing_after_image' end
        end as quarantine_reason
    from keyed
),

-- The contract columns Canal's events carry, in their terms (the rest: staged_event_columns).
contract_rows as (
    select
        events.*,
        'mysql' as source_system,
        database_name as source_database,
        table_name as source_table,
        nullif(concat_ws('.', database_name, table_name), '') as table_id,
        false as after_is_partial,
        {{ canal__column_types('message_types', 'row_image') }} as column_types,
        case
            when try_cast(message.es as bigint) > 0 then {{ epoch_to_timestamp('message.es', 'ms') }}
        end as committed_at,
        case
            when try_cast(message.ts as bigint) > 0 then {{ epoch_to_timestamp('message.ts', 'ms') }}
        end as captured_at,
        nullif(concat_ws('/', message.id, message.gtid), '') as source_position,
        concat(position_sort_key, {{ landing_order_key('row_index') }}) as sort_key,
        message.gtid as transaction_id,
        case when event_class_raw in ('schema_change', 'truncate') then message.sql end as ddl_text,
        map(
            'es', message.es,
            'ts', message.ts,
            'id', message.id,
            'gtid', message.gtid,
            'layout', case when is_legacy_layout then 'legacy' end
        ) as source_metadata
    from events
)

select
    {{ staged_event_columns('contract_rows', 'canal', absent=['source_schema', 'pairing_key', 'ddl_meta']) }}
from contract_rows
