{{ config(enabled=('debezium' in var('cdc_formats'))) }}

-- One row per event of each landed Debezium message: row changes, truncates,
-- DDL, transaction markers, heartbeats, tombstones, and invalid messages with a reason.
-- Calls the Python UDFs cdc_decode_debezium_decimals and cdc_decode_hbase_image (temporary
-- functions), so it is incremental, never a view. A read whose messages hold no decimal
-- and no HBase cell skips them (debezium__read_needs_decoders).
-- Flow, one CTE per step: parsed -> wrapped -> enveloped -> fields -> identified
--    -> tabled -> classified -> filled -> logical -> decoded -> imaged -> shaped -> keyed ->
--    positioned -> events -> contract_rows
-- Its operation codes: seeds/cdc_operation_codes.csv (the operation_codes CTE); its column
-- types: seeds/cdc_type_codes.csv (rows `debezium`, written into the SQL as literals when the
-- model compiles, debezium__column_type); its value conversions: macros/formats/debezium.sql.
-- depends_on: {{ ref('cdc_type_codes') }}
{%- set read_plan = staging_read_plan('debezium') %}
{%- set decode_values = debezium__read_needs_decoders(read_plan) %}
{%- set placeholder = var('cdc_debezium_unavailable_value', '__debezium_unavailable_value') %}
with parsed as (
    {{ parsed_landed_messages('debezium', read_plan) }}
),

-- The Kafka Connect wrapper's `payload` and `schema`, read by one cast to a struct, not by
-- their paths: a path the message lacks costs Spark a thrown exception (VariantGet's
-- non-local return), a missing struct field does not
-- (bench/results/2026-12-04-night-variant-paths/).
wrapped as (
    select
        parsed.*,
        try_variant_get(
            parsed.message_variant,
            '$', 'struct<payload: variant, schema: {{ debezium__connect_schema() | replace("\n", " ") }}>'
        ) as wrapper
    from parsed
),

-- The envelope is `payload` when the message is wrapped ({"schema", "payload"}), else the
-- message itself. A null value (Kafka tombstone) or a null payload is a tombstone.
enveloped as (
    select
        wrapped.*,
        wrapper.payload is not null as has_payload_wrapper,
        coalesce(wrapper.payload, message_variant) as envelope,
        wrapper.schema as connect_schema
    from wrapped
),

fields as (
    select
        enveloped.*,
        -- a null value (the text `null`) or a null payload
        trim(raw_value) = 'null' or (has_payload_wrapper and is_variant_null(envelope)) as is_tombstone,
        {{ debezium__record_key_columns('message_key') }} as record_key_columns,
        try_variant_get(envelope, '$', '{{ debezium__message_schema() | replace("\n", " ") }}') as message,
        try_variant_get(envelope, '$.source', 'map<string, variant>') as source_values,
        try_variant_get(envelope, '$.before', 'map<string, variant>') as before_values,
        try_variant_get(envelope, '$.after', 'map<string, variant>') as after_values,
        -- which fields the envelope carries, to tell a missing one from one of the wrong type
        {{ variant_given_columns('envelope', {
            'before_given': '$.before', 'after_given': '$.after', 'source_given': '$.source',
            'ts_ms_given': '$.ts_ms', 'source_ts_ms_given': '$.source.ts_ms',
        }) }}
    from enveloped
),

identified as (
    select
        fields.*,
        lower(message.source.connector) as connector,
        coalesce(message.source.db, message.databaseName) as database_name,
        coalesce(message.source.schema, message.source.namespace) as schema_name,
        coalesce(
            message.source.table,
            message.source.collection,
            nullif(regexp_extract(try_element_at(message.tableChanges, 1).id, '"?([^".]*)"?$', 1), '')
        ) as table_name,
        -- Lindorm: `source.namespace`, no `connector` (docs/formats/debezium.md)
        coalesce(
            map_contains_key(source_values, 'namespace') and not map_contains_key(source_values, 'connector'), false
        ) as is_lindorm,
        transform_values(before_values, (column_name, value) -> {{ debezium__value_text('value') }}) as before_raw,
        transform_values(after_values, (column_name, value) -> {{ debezium__value_text('value') }}) as after_raw,
        map_from_entries(
            transform(
                filter(
                    coalesce(
                        try_element_at(filter(connect_schema.fields, f -> f.field = 'after'), 1).fields,
                        try_element_at(filter(connect_schema.fields, f -> f.field = 'before'), 1).fields,
                        array()
                    ),
                    f -> f.field is not null
                ),
                f -> struct(
                    f.field,
                    named_struct(
                        'type', f.type,
                        'name', f.name,
                        'scale', f.parameters['scale'],
                        'precision', f.parameters['connect.decimal.precision']
                    )
                )
            )
        ) as schema_info
    from fields
),

tabled as (
    select
        identified.*,
        nullif(concat_ws('.', database_name, schema_name, table_name), '') as table_key,
        -- HBase tables of Lindorm: the key column is `ROW`, cells are Base64 of raw bytes
        is_lindorm and (
            coalesce(map_contains_key(coalesce(after_raw, before_raw), 'ROW'), false)
            or map_contains_key(
                {{ debezium__table_column_map('cdc_hbase_column_types') }},
                nullif(concat_ws('.', database_name, schema_name, table_name), '')
            )
        ) as is_hbase
    from identified
),

operation_codes as (
    {{ operation_codes('debezium') }}
),

classified as (
    select
        tabled.*,
        case
            when is_tombstone then 'heartbeat'
            when message.op is not null then operation_codes.code_event_class
            when message.status in ('BEGIN', 'END') then 'transaction'
            when
                message.ddl is not null
                and lower(coalesce(
                    try_element_at(message.tableChanges, 1).type, regexp_extract(message.ddl, '^\\s*([A-Za-z]+)', 1)
                )) in ('drop', 'truncate')
                and table_name is not null then 'truncate'
            when message.ddl is not null then 'schema_change'
            when not before_given and not after_given and (ts_ms_given or source_given) then 'heartbeat'
        end as known_class,
        case
            when is_tombstone then 'tombstone'
            when message.op is not null then operation_codes.code_operation
            when message.status = 'BEGIN' then 'begin'
            when message.status = 'END' then 'commit'
            when message.ddl is not null
                then coalesce(lower(coalesce(
                    try_element_at(message.tableChanges, 1).type, regexp_extract(message.ddl, '^\\s*([A-Za-z]+)', 1)
                )), 'ddl')
            when not before_given and not after_given and (ts_ms_given or source_given) then 'heartbeat'
        end as known_operation,
        -- field info per column: the message's schema, else var('cdc_debezium_column_types')
        map_concat(
            transform_values(
                coalesce(
                    {{ debezium__table_column_map('cdc_debezium_column_types') }}[table_key],
                    cast(map() as map<string, string>)
                ),
                (column_name, declared) -> {{ debezium__declared_field_info('declared') }}
            ),
            schema_info
        ) as field_info
    from tabled
    left join operation_codes
        on tabled.message.op = operation_codes.operation_code
),

-- Lindorm: an update whose `after` lacks a column of `before` deleted that column (null).
filled as (
    select
        classified.*,
        case
            when is_lindorm and known_operation = 'update' and before_raw is not null and after_raw is not null
                then map_concat(
                    after_raw,
                    map_from_entries(
                        transform(
                            filter(map_keys(before_raw), column_name -> not map_contains_key(after_raw, column_name)),
                            column_name -> struct(column_name, cast(null as string))
                        )
                    )
                )
            else after_raw
        end as after_filled,
        map_filter(
            transform_values(
                field_info,
                (column_name, info) -> case
                    when info.name = 'io.debezium.data.VariableScaleDecimal' then 'variable'
                    when info.name = 'org.apache.kafka.connect.data.Decimal' then coalesce(info.scale, '0')
                end
            ),
            (column_name, kind) -> kind is not null
        ) as decimal_columns
    from classified
),

logical as (
    select
        filled.*,
        transform_values(
            before_raw,
            (column_name, value) -> {{ debezium__logical_value('value', 'field_info[column_name]') }}
        ) as before_logical,
        transform_values(
            after_filled,
            (column_name, value) -> {{ debezium__logical_value('value', 'field_info[column_name]') }}
        ) as after_logical
    from filled
),

-- noqa: disable=LT02
-- (LT02 off: sqlfluff lints both branches of this `if` as one; see .sqlfluff)
{% if decode_values -%}
-- Python UDFs (docs/udfs.md): decimals of Debezium schemas, cells of HBase tables.
decoded as (
    select
        logical.*,
        cdc_decode_debezium_decimals(
            case when size(decimal_columns) > 0 and not is_hbase then before_logical end, decimal_columns
        ) as before_decimals,
        cdc_decode_debezium_decimals(
            case when size(decimal_columns) > 0 and not is_hbase then after_logical end, decimal_columns
        ) as after_decimals,
        cdc_decode_hbase_image(
            case when is_hbase then before_raw end,
            coalesce(
                {{ debezium__table_column_map('cdc_hbase_column_types') }}[table_key],
                cast(map() as map<string, string>)
            )
        ) as before_hbase,
        cdc_decode_hbase_image(
            case when is_hbase then after_filled end,
            coalesce(
                {{ debezium__table_column_map('cdc_hbase_column_types') }}[table_key],
                cast(map() as map<string, string>)
            )
        ) as after_hbase
    from logical
),
{%- else %}

-- A read debezium__read_needs_decoders rules out holds no decimal and no HBase cell: no
-- Python UDF. Should a message hold one after all, it is quarantined, not guessed.
decoded as (
    select
        logical.*,
        case when size(decimal_columns) > 0 and not is_hbase then named_struct(
            'image', cast(null as map<string, string>),
            'error', 'value decoders were skipped for this read (debezium__read_needs_decoders)'
        ) end as before_decimals,
        cast(null as struct<image: map<string, string>, error: string>) as after_decimals,
        case when is_hbase then named_struct(
            'image', cast(null as map<string, string>),
            'column_types', cast(null as map<string, string>),
            'error', 'value decoders were skipped for this read (debezium__read_needs_decoders)'
        ) end as before_hbase,
        cast(
            null as struct<image: map<string, string>, column_types: map<string, string>, error: string>
        ) as after_hbase
    from logical
),
{%- endif %}
-- noqa: enable=LT02

imaged as (
    select
        decoded.*,
        case
            when is_hbase then before_hbase.image
            when size(decimal_columns) > 0 then before_decimals.image
            else before_logical
        end as before_image,
        case
            when is_hbase then after_hbase.image
            when size(decimal_columns) > 0 then after_decimals.image
            else after_logical
        end as after_image,
        coalesce(before_hbase.error, after_hbase.error, before_decimals.error, after_decimals.error) as decode_error
    from decoded
),

-- PostgreSQL TOAST columns not changed by an update carry a placeholder, not their value:
-- they are left out of `after`, which is then partial (merged over the prior state).
shaped as (
    select
        imaged.*,
        known_class as event_class_raw,
        known_operation as operation,
        before_image as before,
        case
            when known_operation = 'update'
                then map_filter(
                    after_image,
                    (column_name, value) -> value is null
                    or value not in ('{{ placeholder }}', base64(encode('{{ placeholder }}', 'UTF-8')))
                )
            else after_image
        end as after,
        case
            when is_hbase
                then map_concat(
                    coalesce(before_hbase.column_types, cast(map() as map<string, string>)),
                    coalesce(after_hbase.column_types, cast(map() as map<string, string>))
                )
            else map_concat(
                transform_values(
                    map_concat(
                        coalesce(before_raw, cast(map() as map<string, string>)),
                        coalesce(after_raw, cast(map() as map<string, string>))
                    ),
                    (column_name, value) -> 'string'
                ),
                transform_values(field_info, (column_name, info) -> {{ debezium__column_type('info') }})
            )
        end as column_types,
        -- configuration, else the Kafka record key (docs/formats/debezium.md)
        case
            when is_hbase
                then array('ROW')
            else {{ declared_key_columns('table_key', ['record_key_columns']) }}
        end as declared_keys
    from imaged
),

keyed as (
    select
        shaped.*,
        coalesce(operation = 'update' and size(after) < size(after_image), false) as after_is_partial,
        case when operation = 'delete' then before else after end as key_image,
        {{ row_key_columns('declared_keys', 'key_image', before_image='before') }}
    from shaped
),

-- Position parts, compared as numbers, per connector (docs/formats/debezium.md).
positioned as (
    select
        keyed.*,
        case
            when connector in ('mysql', 'mariadb') then nullif(regexp_extract(message.source.file, '([0-9]+)$', 1), '')
            when connector = 'postgresql' then message.source.lsn
            when connector = 'oracle' then message.source.scn
            when connector = 'sqlserver' then {{ debezium__lsn_number('message.source.commit_lsn') }}
            else cast(message.source.ts_ms as string)
        end as position_1,
        case
            when connector in ('mysql', 'mariadb') then message.source.pos
            when connector = 'oracle' then message.source.ssn
            when connector = 'sqlserver' then {{ debezium__lsn_number('message.source.change_lsn') }}
            when connector = 'postgresql' then null
            else cast(message.ts_ms as string)
        end as position_2,
        case
            when connector in ('mysql', 'mariadb') then message.source.row
            when connector = 'sqlserver' then message.source.event_serial_no
        end as position_3,
        case
            when connector in ('mysql', 'mariadb')
                then nullif(concat_ws(':', nullif(message.source.file, ''), message.source.pos, message.source.row), '')
            when connector = 'postgresql' then message.source.lsn
            when connector = 'oracle' then message.source.scn
            when connector = 'sqlserver'
                then nullif(
                    concat_ws(
                        '/', message.source.commit_lsn, message.source.change_lsn, message.source.event_serial_no
                    ),
                    ''
                )
            else cast(message.source.ts_ms as string)
        end as position_text
    from keyed
),

events as (
    select
        positioned.*,
        case
            when is_tombstone then null
            when message_variant is null or not is_object then 'not_json'
            when
                (before_given and before_values is null)
                or (after_given and after_values is null)
                or (source_given and source_values is null)
                or (ts_ms_given and message.ts_ms is null)
                or (source_ts_ms_given and message.source.ts_ms is null)
                then 'type_clash'
            when known_class is null and message.op is null then 'missing_operation'
            when known_class is null then 'unknown_operation'
            when known_class in ('change', 'truncate') and table_name is null then 'missing_table'
            when operation in ('insert', 'update', 'read') and after_values is null then 'missing_after_image'
            when operation = 'delete' and before_values is null then 'missing_before_image'
            when known_class = 'change' and decode_error is not null then 'undecodable_value'
        end as quarantine_reason
    from positioned
),

-- The contract columns Debezium's events carry, in their terms (the rest: staged_event_columns).
contract_rows as (
    select
        events.*,
        coalesce(message.op, message.status, try_element_at(message.tableChanges, 1).type) as vendor_operation,
        case
            when is_hbase then 'hbase'
            when is_lindorm then 'lindorm'
            else connector
        end as source_system,
        database_name as source_database,
        schema_name as source_schema,
        table_name as source_table,
        table_key as table_id,
        column_types,
        case
            when message.source.ts_us between 1 and 253402300799999999 then timestamp_micros(message.source.ts_us)
            when message.source.ts_ms between 1 and 253402300799999 then timestamp_millis(message.source.ts_ms)
            when event_class_raw in ('heartbeat', 'transaction') and message.ts_ms between 1 and 253402300799999
                then timestamp_millis(message.ts_ms)
        end as committed_at,
        case when message.ts_ms between 1 and 253402300799999 then timestamp_millis(message.ts_ms) end as captured_at,
        position_text as source_position,
        concat(
            {{ sort_key_number('position_1') }},
            {{ sort_key_number('position_2') }},
            {{ sort_key_number('position_3') }},
            -- Ties of the position (placeholders such as file "" / pos 0, or no position at
            -- all) fall back to the source time, then the connector time, then landing order.
            {{ sort_key_number('message.source.ts_ms') }},
            {{ sort_key_number('message.ts_ms') }},
            {{ landing_order_key('0') }}
        ) as sort_key,
        coalesce(
            message.transaction.id,
            message.source.txId,
            message.source.xid,
            message.source.gtid,
            case when event_class_raw = 'transaction' then message.id end
        ) as transaction_id,
        message.ddl as ddl_text,
        map_concat(
            coalesce(
                transform_values(source_values, (field_name, value) -> {{ debezium__value_text('value') }}),
                cast(map() as map<string, string>)
            ),
            map(
                'envelope', case when has_payload_wrapper then 'schema_payload' else 'plain' end,
                'schema_name', connect_schema.name,
                'transaction.total_order', cast(message.transaction.total_order as string),
                'transaction.data_collection_order', cast(message.transaction.data_collection_order as string),
                'transaction.event_count', cast(message.event_count as string),
                'message.prefix', message.message.prefix,
                'message.content', message.message.content,
                'decode_error', decode_error,
                -- the quarantine's reason_detail for type_clash: which fields
                'type_clash', case when quarantine_reason = 'type_clash' then concat_ws(
                    ', ',
                    case when before_given and before_values is null then 'before (expected an object)' end,
                    case when after_given and after_values is null then 'after (expected an object)' end,
                    case when source_given and source_values is null then 'source (expected an object)' end,
                    case when ts_ms_given and message.ts_ms is null then 'ts_ms (expected a whole number)' end,
                    case
                        when source_ts_ms_given and message.source.ts_ms is null
                            then 'source.ts_ms (expected a whole number)'
                    end
                ) end
            )
        ) as source_metadata
    from events
)

select
    {{ staged_event_columns('contract_rows', 'debezium', absent=['pairing_key', 'ddl_meta']) }}
from contract_rows
