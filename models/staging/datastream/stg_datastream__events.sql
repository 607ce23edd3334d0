{{ config(enabled=('datastream' in var('cdc_formats'))) }}

-- One row per landed Datastream event (JSON event, or one record of an Avro container file
-- decoded at landing): row changes in the staging contract, invalid events with a reason.
-- Flow, one CTE per step: parsed -> fields -> identified -> classified
--    -> shaped -> keyed -> seen_keys -> with_seen_keys -> with_keys -> positioned -> events -> contract_rows
-- Its operation codes: seeds/cdc_operation_codes.csv (the operation_codes CTE); its Avro
-- column types and source systems: seeds/cdc_type_codes.csv and seeds/cdc_source_systems.csv
-- (rows `datastream`, written into the SQL as literals when the model compiles); its value
-- conversions: macros/formats/datastream.sql.
-- depends_on: {{ ref('cdc_type_codes') }}
-- depends_on: {{ ref('cdc_source_systems') }}
{%- set read_plan = staging_read_plan('datastream') %}
{%- set systems = datastream__source_systems() %}
{%- set avro_types = datastream__avro_type_map() %}
with parsed as (
    {{ parsed_landed_messages('datastream', read_plan) }}
),

-- Fields most events lack (`_avro_payload_types`, SQL Server's `replication_index`, one of
-- `schema` / `database`) are read by one cast to a struct, not by their paths: a path an
-- event lacks costs Spark a thrown exception (bench/results/2026-12-04-night-variant-paths/).
fields as (
    select
        sparse.*,
        try_variant_get(message_variant, '$', '{{ datastream__message_schema() | replace("\n", " ") }}') as message,
        try_variant_get(message_variant, '$.source_metadata', 'map<string, variant>') as metadata_values,
        try_variant_get(message_variant, '$.payload', 'map<string, variant>') as payload_values,
        try_variant_get(message_variant, '$.sort_keys', 'array<variant>') as sort_key_values,
        sparse.optional_fields._avro_payload_types as avro_payload_types,
        try_variant_get(message_variant, '$.source_metadata.primary_keys', 'array<string>') as message_primary_keys,
        try_variant_get(
            sparse.optional_fields.source_metadata.replication_index, '$', 'array<string>'
        ) as replication_index,
        try_variant_get(message_variant, '$.source_metadata.is_deleted', 'boolean') as is_deleted_flag,
        sparse.optional_fields.source_metadata.schema as schema_value,
        sparse.optional_fields.source_metadata.database as database_value,
        try_variant_get(message_variant, '$.source_timestamp') as source_timestamp_value,
        try_variant_get(message_variant, '$.read_timestamp') as read_timestamp_value,
        -- which fields the event carries, to tell a missing one from one of the wrong type
        coalesce(
            sparse.optional_fields.source_metadata.replication_index is not null
            and not is_variant_null(sparse.optional_fields.source_metadata.replication_index),
            false
        ) as replication_index_given,
        {{ variant_given_columns('message_variant', {
            'metadata_given': '$.source_metadata',
            'payload_given': '$.payload',
            'sort_keys_given': '$.sort_keys',
            'primary_keys_given': '$.source_metadata.primary_keys',
            'is_deleted_given': '$.source_metadata.is_deleted',
            'source_timestamp_given': '$.source_timestamp',
            'read_timestamp_given': '$.read_timestamp',
        }) }}
    from (
        select
            parsed.*,
            try_variant_get(
                parsed.message_variant,
                '$',
                'struct<_avro_payload_types: map<string, string>, '
                'source_metadata: struct<replication_index: variant, schema: variant, database: variant>>'
            ) as optional_fields
        from parsed
    ) as sparse
),

identified as (
    select
        fields.*,
        -- the source: `read_method` prefix (seed cdc_source_systems), else the position fields the
        -- event carries
        coalesce(
            {%- if systems %}
                case lower(split_part(message.read_method, '-', 1))
                    {%- for prefix, system in systems.items() %}
                        when {{ cdc_sql_string(prefix) }} then {{ cdc_sql_string(system) }}
                    {%- endfor %}
                end,
            {%- endif %}
            case
                when map_contains_key(metadata_values, 'log_position') then 'mysql'
                when map_contains_key(metadata_values, 'scn') or map_contains_key(metadata_values, 'rs_id')
                    then 'oracle'
                when
                    map_contains_key(metadata_values, 'physical_location')
                    or map_contains_key(metadata_values, 'replication_index') then 'sqlserver'
                when map_contains_key(metadata_values, 'lsn') then 'postgresql'
            end
        ) as source_system_name,
        coalesce(
            lower(message.read_method) like '%backfill%' or lower(message.read_method) like '%supplementation%',
            false
        ) as is_backfill,
        message.source_metadata.change_type as change_type,  -- noqa: AL09
        nullif(
            case
                when schema_value is null or is_variant_null(schema_value) then null
                when try_variant_get(schema_value, '$', 'array<string>') is not null
                    then array_join(try_variant_get(schema_value, '$', 'array<string>'), '.')
                else {{ datastream__value_text('schema_value') }}
            end,
            ''
        ) as schema_name,
        nullif({{ datastream__value_text('database_value') }}, '') as database_name,
        coalesce(nullif(message.source_metadata.table, ''), nullif(message.object, '')) as table_name,
        -- timestamps: the field, else the first element of `sort_keys`
        coalesce(
            {{ datastream__timestamp('source_timestamp_value') }},
            case
                when not source_timestamp_given
                    then {{ datastream__timestamp('try_element_at(sort_key_values, 1)') }}
            end
        ) as source_timestamp,
        {{ datastream__timestamp('read_timestamp_value') }} as read_timestamp,
        transform_values(
            payload_values,
            (column_name, value) -> {{ datastream__value_text('value') }}
        ) as payload_image,
        transform(sort_key_values, value -> {{ datastream__value_text('value') }}) as sort_key_texts
    from fields
),

operation_codes as (
    {{ operation_codes('datastream') }}
),

classified as (
    select
        identified.*,
        case
            when is_backfill then 'read'
            else operation_codes.code_operation
        end as operation,
        -- Datastream has no before image: the payload is the new row, or the deleted row
        -- (DELETE, UPDATE-DELETE)
        case when change_type is not null then coalesce(operation_codes.code_operation = 'delete', false) end
        and not is_backfill as payload_is_before,
        -- position fields: source_metadata, else their element of `sort_keys` per source system
        {{ datastream__position_field(
            'message.source_metadata.log_file', 'source_system_name', 'sort_key_texts', ['mysql'], 2
        ) }} as log_file,
        {{ datastream__position_field(
            'message.source_metadata.log_position', 'source_system_name', 'sort_key_texts', ['mysql'], 3
        ) }} as log_position,
        {{ datastream__position_field(
            'message.source_metadata.scn', 'source_system_name', 'sort_key_texts', ['oracle'], 2
        ) }} as scn,
        {{ datastream__position_field(
            'message.source_metadata.rs_id', 'source_system_name', 'sort_key_texts', ['oracle'], 3
        ) }} as rs_id,
        {{ datastream__position_field(
            'message.source_metadata.ssn', 'source_system_name', 'sort_key_texts', ['oracle'], 4
        ) }} as ssn,
        {{ datastream__position_field(
            'message.source_metadata.lsn', 'source_system_name', 'sort_key_texts', ['postgresql', 'sqlserver'], 2
        ) }} as lsn
    from identified
    left join operation_codes
        on identified.change_type = operation_codes.operation_code
),

shaped as (
    select
        classified.*,
        nullif(concat_ws('.', database_name, schema_name, table_name), '') as table_key,
        case when payload_is_before then payload_image end as before,
        case when not payload_is_before then payload_image end as after,
        payload_image as key_image
    from classified
),

keyed as (
    select
        shaped.*,
        -- keys: config, else the event's primary_keys, else SQL Server's replication_index
        coalesce(
            {{ declared_key_columns('table_key', ['message_primary_keys', 'replication_index']) }},
            cast(array() as array<string>)
        ) as declared_keys,
        nullif(trim(message.source_metadata.row_id), '') as row_id
    from shaped
),

-- The key columns each table's events carried with their values: this batch's, and those
-- staged before. The fallback for an event whose declared key columns are absent from its
-- row (Google's test files have an Authors event naming `id` in a table keyed `author_id`):
-- the table's latest such key, if the row has it, before the event is quarantined.
seen_keys as (
    {{ seen_key_columns('keyed', 'table_key', 'declared_keys', 'key_image') }}
),

with_seen_keys as (
    select /*+ broadcast(seen_keys) */
        keyed.*,
        case
            when
                size(keyed.declared_keys) > 0
                and keyed.key_image is not null
                and {{ key_text('keyed.declared_keys', 'keyed.key_image') }} is null
                and {{ key_text('seen_keys.key_columns', 'keyed.key_image') }} is not null
                then seen_keys.key_columns
            else keyed.declared_keys
        end as key_columns
    from keyed
    left join seen_keys
        on keyed.table_key = seen_keys.table_id
),

with_keys as (
    select
        with_seen_keys.*,
        case
            when key_image is null then null
            when size(key_columns) > 0 then {{ key_text('key_columns', 'key_image') }}
            when row_id is not null then row_id
            else sha2({{ canonical_map_json('key_image') }}, 256)
        end as computed_row_key,
        case
            when size(key_columns) > 0 then 'primary_key'
            when row_id is not null then 'row_id'
            else 'row_hash'
        end as computed_row_key_kind
    from with_seen_keys
),

-- Position parts compared as numbers (docs/formats/datastream.md, "Ordering").
positioned as (
    select
        with_keys.*,
        case
            when source_system_name = 'mysql' then nullif(regexp_extract(log_file, '([0-9]+)$', 1), '')
            when source_system_name = 'oracle' then scn
            else {{ datastream__lsn_number('lsn', "source_system_name = 'sqlserver'") }}
        end as position_1,
        case
            when source_system_name = 'mysql' then log_position
            when source_system_name = 'oracle' then {{ datastream__rs_id_number('rs_id') }}
        end as position_2,
        case when source_system_name = 'oracle' then ssn end as position_3,
        nullif(
            case
                when source_system_name = 'mysql'
                    then concat_ws(
                        ':', nullif(log_file, ''), case when nullif(log_file, '') is not null then log_position end
                    )
                when source_system_name = 'oracle' then concat_ws(':', scn, trim(rs_id), ssn)
                else lsn
            end,
            ''
        ) as vendor_position
    from with_keys
),

events as (
    select
        positioned.*,
        case
            when message_variant is null or not is_object then 'not_json'
            when
                (metadata_given and metadata_values is null)
                or (payload_given and payload_values is null)
                or (sort_keys_given and sort_key_values is null)
                or (primary_keys_given and message_primary_keys is null)
                or (replication_index_given and replication_index is null)
                or (is_deleted_given and is_deleted_flag is null)
                or (source_timestamp_given and source_timestamp is null)
                or (read_timestamp_given and read_timestamp is null)
                or message is null
                then 'type_clash'
            when operation is null and change_type is null then 'missing_operation'
            when operation is null then 'unknown_operation'
            when table_name is null then 'missing_table'
            when payload_values is null and payload_is_before then 'missing_before_image'
            when payload_values is null then 'missing_after_image'
            -- before missing_position, unlike the other formats' (the shared step's is last)
            when computed_row_key is null then 'missing_key'
            when source_timestamp is null then 'missing_position'
        end as quarantine_reason
    from positioned
),

-- The contract columns Datastream's events carry, in their terms (the rest: staged_event_columns).
contract_rows as (
    select
        events.*,
        'change' as event_class_raw,
        coalesce(change_type, message.read_method) as vendor_operation,
        source_system_name as source_system,
        database_name as source_database,
        schema_name as source_schema,
        table_name as source_table,
        table_key as table_id,
        case
            when computed_row_key_kind = 'primary_key'
                then key_columns
            else cast(array() as array<string>)
        end as primary_key_columns,
        computed_row_key as row_key,
        computed_row_key_kind as row_key_kind,
        false as after_is_partial,
        map_from_entries(
            transform(
                map_keys(coalesce(payload_image, cast(map() as map<string, string>))),
                column_name -> struct(
                    column_name,
                    case lower(coalesce(avro_payload_types[column_name], 'string'))
                        {%- for avro_type, canonical in avro_types.items() %}
                            when '{{ avro_type }}' then '{{ canonical }}'
                        {%- endfor %}
                        else case
                            when
                                lower(avro_payload_types[column_name]) rlike '^decimal\\([0-9]+,[0-9]+\\)$'
                                and cast(regexp_extract(avro_payload_types[column_name], '\\(([0-9]+)', 1) as int) <= 38
                                then lower(avro_payload_types[column_name])
                            else 'string'
                        end
                    end
                )
            )
        ) as column_types,
        source_timestamp as committed_at,
        read_timestamp as captured_at,
        -- the event's position as Datastream orders it (its sort_keys): source timestamp in
        -- epoch ms, then the source's log position; the same for every delivery of one uuid
        concat_ws('/', {{ datastream__epoch_millis_text('source_timestamp') }}, vendor_position) as source_position,
        concat(
            {{ sort_key_number('unix_micros(source_timestamp)') }},
            {{ sort_key_number('position_1') }},
            {{ sort_key_number('position_2') }},
            {{ sort_key_number('position_3') }},
            -- the old-row half of an update before its new-row half at the same position
            case when change_type = 'UPDATE-DELETE' and not is_backfill then '0' else '1' end,
            -- a content-based tie-break (arrival order never decides between two events), then
            -- landing order (which decides only between deliveries of one uuid)
            substr(sha2(coalesce(message.uuid, ''), 256), 1, 16),
            {{ landing_order_key('0') }}
        ) as sort_key,
        nullif(message.source_metadata.tx_id, '') as transaction_id,
        map_concat(
            coalesce(
                transform_values(metadata_values, (field_name, value) -> {{ datastream__value_text('value') }}),
                cast(map() as map<string, string>)
            ),
            map(
                'stream_name', message.stream_name,
                'read_method', message.read_method,
                'object', message.object,
                'schema_key', message.schema_key,
                'uuid', message.uuid,
                'sort_keys', case when sort_keys_given then to_json(sort_key_texts) end,
                'source_timestamp', {{ datastream__value_text('source_timestamp_value') }},
                'read_timestamp', {{ datastream__value_text('read_timestamp_value') }},
                -- the quarantine's reason_detail for type_clash: which fields
                'type_clash', case when quarantine_reason = 'type_clash' then concat_ws(
                    ', ',
                    case
                        when metadata_given and metadata_values is null
                            then 'source_metadata (expected an object)'
                    end,
                    case when payload_given and payload_values is null then 'payload (expected an object)' end,
                    case when sort_keys_given and sort_key_values is null then 'sort_keys (expected an array)' end,
                    case
                        when primary_keys_given and message_primary_keys is null
                            then 'source_metadata.primary_keys (expected an array of names)'
                    end,
                    case
                        when replication_index_given and replication_index is null
                            then 'source_metadata.replication_index (expected an array of names)'
                    end,
                    case
                        when is_deleted_given and is_deleted_flag is null
                            then 'source_metadata.is_deleted (expected a boolean)'
                    end,
                    case
                        when source_timestamp_given and source_timestamp is null
                            then 'source_timestamp (expected a timestamp)'
                    end,
                    case
                        when read_timestamp_given and read_timestamp is null
                            then 'read_timestamp (expected a timestamp)'
                    end
                ) end
            )
        ) as source_metadata
    from events
)

select
    {{ staged_event_columns(
        'contract_rows', 'datastream', absent=['previous_row_key', 'pairing_key', 'ddl_text', 'ddl_meta']
    ) }}
from contract_rows
