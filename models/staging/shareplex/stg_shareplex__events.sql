{{ config(enabled=('shareplex' in var('cdc_formats'))) }}

-- One row per landed SharePlex message: inserts, updates (partial after image), deletes,
-- update halves, truncates and column drops, and invalid messages with a reason.
-- Flow, one CTE per step: parsed -> fields -> classified -> shaped ->
--    keyed -> with_keys -> events -> contract_rows
-- Its operation codes: seeds/cdc_operation_codes.csv (the operation_codes CTE); its value
-- conversions and other vocabulary: macros/formats/shareplex.sql.
{%- set read_plan = staging_read_plan('shareplex') %}
{%- set empty_image = 'cast(map() as map<string, string>)' %}
with parsed as (
    {{ parsed_landed_messages('shareplex', read_plan, shareplex__message_schema()) }}
),

fields as (
    select
        parsed.*,
        message.meta.op as vendor_operation,
        {{ shareplex__op_name('message.meta.op') }} as op_name,
        nullif(trim(message.meta.`table`), '') as table_name,
        nullif(trim(message.meta.rowid), '') as row_id,
        nullif(trim(message.meta.scn), '') as scn
    from parsed
),

operation_codes as (
    {{ operation_codes('shareplex') }}
),

classified as (
    select
        fields.*,
        operation_codes.code_event_class as event_class_raw,
        operation_codes.code_operation as operation,
        case when table_name rlike '^[^.]+[.].+$' then regexp_extract(table_name, '^([^.]+)[.]', 1) end as owner_name,
        case
            when table_name rlike '^[^.]+[.].+$'
                then regexp_extract(table_name, '^[^.]+[.](.+)$', 1)
            else table_name
        end as object_name
    from fields
    left join operation_codes
        on fields.op_name = operation_codes.operation_code
),

-- upd: `key` is the before image, `data` the changed columns' new values, so the after
-- image is `key` overlaid with `data` and is partial (merged over the prior row state).
shaped as (
    select
        classified.*,
        case
            when operation = 'delete' then message.data
            when operation = 'update' then message.key
            when operation = 'update_before' then map_concat(coalesce(message.key, {{ empty_image }}), message.data)
        end as before,
        case
            when operation = 'insert' then message.data
            when operation in ('update', 'update_after') and message.data is not null
                then map_concat(coalesce(message.key, {{ empty_image }}), message.data)
        end as after,
        operation in ('update', 'update_after') as after_is_partial,
        {{ declared_key_columns('table_name') }} as declared_keys
    from classified
),

keyed as (
    select
        shaped.*,
        case when operation in ('delete', 'update_before') then before else after end as key_image
    from shaped
),

-- Key: configured primary key, else the Oracle rowid of `meta`, else a hash of the row.
with_keys as (
    select
        keyed.*,
        case
            when size(coalesce(declared_keys, array())) > 0 then {{ key_text('declared_keys', 'key_image') }}
            when row_id is not null then row_id
            when key_image is not null then sha2({{ canonical_map_json('key_image') }}, 256)
        end as computed_row_key,
        case
            when size(coalesce(declared_keys, array())) > 0 then 'primary_key'
            when row_id is not null then 'row_id'
            else 'row_hash'
        end as computed_row_key_kind,
        case
            when operation <> 'update' or before is null then null
            when size(coalesce(declared_keys, array())) > 0 then {{ key_text('declared_keys', 'before') }}
            when row_id is not null then row_id
            else sha2({{ canonical_map_json('before') }}, 256)
        end as before_row_key
    from keyed
),

events as (
    select
        with_keys.*,
        case
            when message._corrupt_record is not null then {{ unreadable_message_reason('raw_value') }}
            when vendor_operation is null then 'missing_operation'
            when event_class_raw is null then 'unknown_operation'
            when table_name is null then 'missing_table'
            -- scn, trans, seq and time are all optional for ordering (landing order always
            -- exists); a half needs trans + seq to find its partner.
            when
                event_class_raw = 'update_half'
                and (message.meta.trans is null or message.meta.seq is null) then 'missing_position'
            when operation in ('insert', 'update', 'update_after') and message.data is null
                then 'missing_after_image'
            when operation in ('delete', 'update_before') and message.data is null
                then 'missing_before_image'
            when
                operation = 'update' and message.key is null and row_id is null
                and size(coalesce(declared_keys, array())) = 0
                then 'missing_before_image'
        end as quarantine_reason
    from with_keys
),

-- The contract columns SharePlex's messages carry, in their terms (the rest: staged_event_columns).
contract_rows as (
    select
        events.*,
        owner_name as source_schema,
        object_name as source_table,
        table_name as table_id,
        coalesce(
            case when size(coalesce(declared_keys, array())) > 0 then declared_keys end,
            cast(array() as array<string>)
        ) as primary_key_columns,
        computed_row_key as row_key,
        computed_row_key_kind as row_key_kind,
        transform_values(
            map_concat(coalesce(message.key, {{ empty_image }}), coalesce(message.data, {{ empty_image }})),
            (column_name, value) -> 'string'
        ) as column_types,
        try_to_timestamp(message.meta.time) as committed_at,
        try_to_timestamp(message.meta.posttime) as captured_at,
        nullif(concat_ws('/', scn, message.meta.trans, message.meta.seq), '') as source_position,
        concat(
            {{ sort_key_number('scn') }},
            {%- for part in range(1, shareplex__transaction_parts() + 1) %}
                {{ sort_key_number("try_element_at(split(message.meta.trans, '[.]'), " ~ part ~ ")") }},
            {%- endfor %}
            {{ sort_key_number('message.meta.seq') }},
            {{ sort_key_number('unix_micros(try_to_timestamp(message.meta.time))') }},
            case when operation = 'update_before' then '0' else '1' end,
            {{ landing_order_key('0') }}
        ) as sort_key,
        message.meta.trans as transaction_id,
        case
            when event_class_raw = 'update_half' then concat_ws('/', message.meta.trans, row_id)
        end as pairing_key,
        map(
            'time', message.meta.time,
            'userid', message.meta.userid,
            'scn', scn,
            'rowid', row_id,
            'trans', message.meta.trans,
            'seq', message.meta.seq,
            'size', message.meta.size,
            'idx', message.meta.idx,
            'posttime', message.meta.posttime,
            'data', case when event_class_raw in ('schema_change', 'truncate') then to_json(message.data) end
        ) as source_metadata
    from events
)

select
    {{ staged_event_columns(
        'contract_rows', 'shareplex', absent=['source_system', 'source_database', 'ddl_text', 'ddl_meta']
    ) }}
from contract_rows
