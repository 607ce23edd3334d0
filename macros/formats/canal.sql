{#
    Format `canal`: Canal FlatMessage JSON, as written by Canal itself and by DTS ("Canal Json",
    seed 002). One message carries one statement: `data[]` holds one row per affected row, `old[]`
    the previous values of the changed columns of each UPDATE row, `type` the statement kind,
    `isDdl` + `sql` DDL, `mysqlType`/`sqlType` the column types, `es` the binlog time, `id` the
    position, `ts` the time the tool wrote the message. Mapping: docs/formats/canal.md.

    Macros (the contract of every format file, docs/adding-a-format.md):
      canal__message_schema()      the from_json schema of one message
      canal__events(landed)        landed messages (CTE name) -> event rows (staging contract)
#}

{% macro canal__message_schema() -%}
struct<
    data: array<map<string, string>>,
    old: array<map<string, string>>,
    database: string,
    table: string,
    es: string,
    id: string,
    ts: string,
    gtid: string,
    isDdl: string,
    type: string,
    sql: string,
    pkNames: array<string>,
    mysqlType: map<string, string>,
    sqlType: map<string, string>,
    _corrupt_record: string
>
{%- endmacro %}


{#
    Canal `type` -> (event class, canonical operation). Case-sensitive, as Canal and DTS write
    them. DDL types not listed here (DTS writes `DDL`, DRS `INIT_DDL`) and any message with
    `isDdl` = true are DDL too: their operation comes from the statement (canal__ddl_operation).
#}
{% macro canal__operations() %}
    {{ return({
        'INSERT': ('change', 'insert'),
        'UPDATE': ('change', 'update'),
        'DELETE': ('change', 'delete'),
        'INIT': ('change', 'read'),
        'CREATE': ('schema_change', 'create'),
        'ALTER': ('schema_change', 'alter'),
        'QUERY': ('schema_change', 'query'),
        'RENAME': ('schema_change', 'rename'),
        'CINDEX': ('schema_change', 'create_index'),
        'DINDEX': ('schema_change', 'drop_index'),
        'TRUNCATE': ('truncate', 'truncate'),
        'ERASE': ('truncate', 'drop'),
        'DROP': ('truncate', 'drop'),
        'DDL': ('schema_change', none),
        'INIT_DDL': ('schema_change', none),
        'GTID': ('transaction', 'gtid'),
        'TRANSACTIONBEGIN': ('transaction', 'begin'),
        'TRANSACTIONEND': ('transaction', 'commit'),
        'XACOMMIT': ('transaction', 'xa_commit'),
        'XAROLLBACK': ('transaction', 'xa_rollback'),
        'MHEARTBEAT': ('heartbeat', 'heartbeat'),
    }) }}
{% endmacro %}


{# java.sql.Types numbers (Canal `sqlType`) -> canonical types; used where `mysqlType` is silent. #}
{% macro canal__sql_type_map() %}
    {{ return({
        '-7': 'boolean', '16': 'boolean',
        '-6': 'tinyint', '5': 'smallint', '4': 'int', '-5': 'bigint',
        '7': 'float', '6': 'double', '8': 'double',
        '2': 'decimal', '3': 'decimal',
        '1': 'string', '12': 'string', '-1': 'string', '-15': 'string', '-9': 'string',
        '-16': 'string', '2005': 'string', '2011': 'string', '2009': 'string', '1111': 'string',
        '91': 'date', '92': 'time', '2013': 'time', '93': 'timestamp', '2014': 'timestamp',
        '-2': 'binary', '-3': 'binary', '-4': 'binary', '2004': 'binary',
    }) }}
{% endmacro %}


{# Quarantine reason codes only this format uses (docs/formats/canal.md, docs/quarantine.md). #}
{% macro canal__quarantine_reasons() %}
    {{ return({
        'legacy_layout': 'a Canal DELETE whose row is in `old` with `data` null: the DTS layout of instances created before 2022-03-20; list the stream in var(\'cdc_canal_legacy_layout\')',
    }) }}
{% endmacro %}


{#
    SQL boolean: does the legacy DTS layout (instances created before 2022-03-20: `old` and
    `data` swapped, deleted rows in `old`) apply to this message? From
    var('cdc_canal_legacy_layout'): false (default), true (every stream), or a list of stream
    names (a single name is accepted too).
#}
{% macro canal__legacy_layout_condition(stream_column='stream_name') -%}
    {%- set setting = var('cdc_canal_legacy_layout', false) -%}
    {%- if setting is sameas true -%}
        true
    {%- elif setting is string and setting | length > 0 -%}
        {{ stream_column }} = '{{ setting | replace("'", "\\'") }}'
    {%- elif setting is iterable and setting is not string and setting is not mapping and setting | length > 0 -%}
        {{ stream_column }} in ({% for name in setting %}'{{ name | replace("'", "\\'") }}'{{ ", " if not loop.last }}{% endfor %})
    {%- else -%}
        false
    {%- endif -%}
{%- endmacro %}


{#
    Operation of a DDL message whose `type` does not say (DTS `DDL`, `INIT_DDL`, or any type
    with `isDdl` = true): the statement's leading words, after comments such as DMS's
    `/* Query from DMS-WEBSQL … */`. Returns (event class, operation) as a SQL struct.
#}
{% macro canal__ddl_operation(sql_text) -%}
    {%- set statement = "lower(regexp_replace(coalesce(" ~ sql_text ~ ", ''), '^(\\\\s+|/\\\\*(?s:.*?)\\\\*/)*', ''))" -%}
    case
        /* most messages are DML without a statement: skip the regular expressions */
        when nullif(trim({{ sql_text }}), '') is null then named_struct('event_class', 'schema_change', 'operation', 'ddl')
        when {{ statement }} rlike '^truncate\\b' then named_struct('event_class', 'truncate', 'operation', 'truncate')
        when {{ statement }} rlike '^drop\\s+(temporary\\s+)?table\\b' then named_struct('event_class', 'truncate', 'operation', 'drop')
        when {{ statement }} rlike '^drop\\s+index\\b' then named_struct('event_class', 'schema_change', 'operation', 'drop_index')
        when {{ statement }} rlike '^create\\s+(unique\\s+|fulltext\\s+|spatial\\s+)?index\\b' then named_struct('event_class', 'schema_change', 'operation', 'create_index')
        when {{ statement }} rlike '^create\\b' then named_struct('event_class', 'schema_change', 'operation', 'create')
        when {{ statement }} rlike '^alter\\b' then named_struct('event_class', 'schema_change', 'operation', 'alter')
        when {{ statement }} rlike '^rename\\b' then named_struct('event_class', 'schema_change', 'operation', 'rename')
        else named_struct('event_class', 'schema_change', 'operation', 'ddl')
    end
{%- endmacro %}


{#
    Canonical column types a message declares: `mysqlType` lower-cased (`VARCHAR(255)` ->
    `varchar(255)`, `DECIMAL(8, 0)` -> `decimal(8,0)`), else `sqlType` mapped through
    canal__sql_type_map. Computed once per message (not per row: the lambdas are interpreted).
#}
{% macro canal__message_column_types(mysql_types, sql_types) -%}
    {%- set sql_type_map = canal__sql_type_map() -%}
    map_concat(
        transform_values(
            coalesce({{ sql_types }}, cast(map() as map<string, string>)),
            (column_name, type_number) -> coalesce(
                try_element_at(
                    map({% for number, canonical in sql_type_map.items() %}'{{ number }}', '{{ canonical }}'{{ ", " if not loop.last }}{% endfor %}),
                    trim(type_number)
                ),
                'string'
            )
        ),
        transform_values(
            map_filter(coalesce({{ mysql_types }}, cast(map() as map<string, string>)), (column_name, mysql_type) -> nullif(trim(mysql_type), '') is not null),
            (column_name, mysql_type) -> lower(regexp_replace(
                trim(mysql_type), '\\(\\s*([0-9]+)\\s*,\\s*([0-9]+)\\s*\\)', '($1,$2)'
            ))
        )
    )
{%- endmacro %}


{#
    Canonical column types of a row: the message's declared types (canal__message_column_types)
    over `string` for every column of the image without type information.
#}
{% macro canal__column_types(message_types, image) -%}
    map_concat(
        map_from_arrays(
            map_keys(coalesce({{ image }}, cast(map() as map<string, string>))),
            array_repeat('string', size(coalesce({{ image }}, cast(map() as map<string, string>))))
        ),
        {{ message_types }}
    )
{%- endmacro %}


{#
    SQL array<string>: the columns of a message whose values are bytes (`mysqlType` binary,
    varbinary, (tiny|medium|long)blob; where `mysqlType` is silent, `sqlType` -2/-3/-4/2004),
    from the message's declared types (canal__message_column_types). Canal writes their values
    as ISO-8859-1 text of the bytes (one char per byte).
#}
{% macro canal__binary_columns(message_types) -%}
    map_keys(map_filter(
        {{ message_types }},
        (column_name, column_type) -> regexp_extract(column_type, '^\\s*([a-z]+)', 1)
            in ('binary', 'varbinary', 'blob', 'tinyblob', 'mediumblob', 'longblob')
    ))
{%- endmacro %}


{#
    An image with the values of `binary_columns` re-encoded as standard Base64 of their
    ISO-8859-1 bytes (the canonical text of binary values, docs/canonical-contract.md). A value
    with a character above U+00FF is not ISO-8859-1 text of bytes: it is kept as sent.
#}
{% macro canal__binary_as_base64(image, binary_columns) -%}
    case
        when {{ image }} is null or size({{ binary_columns }}) = 0 then {{ image }}
        else transform_values({{ image }}, (column_name, value) -> case
            when value is not null and array_contains({{ binary_columns }}, column_name)
                and value rlike '^[\\u0000-\\u00ff]*$'
                then base64(encode(value, 'ISO-8859-1'))
            else value
        end)
    end
{%- endmacro %}


{% macro canal__events(landed) %}
    {%- set operations = canal__operations() -%}
    with parsed as (
        select
            landed.*,
            from_json(landed.raw_value, '{{ canal__message_schema() | replace("\n", " ") }}') as message
        from {{ landed }} as landed
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

    -- DDL wins over the type: `isDdl` = true is a DDL whatever `type` says.
    classified as (
        select
            fields.*,
            case
                when is_ddl and vendor_operation in ('TRUNCATE', 'ERASE', 'DROP') then 'truncate'
                when is_ddl then 'schema_change'
                {%- for op, (event_class, _) in operations.items() %}
                when vendor_operation = '{{ op }}' then '{{ event_class }}'
                {%- endfor %}
            end as known_class,
            case
                {%- for op, (event_class, operation) in operations.items() if operation is not none and event_class in ('schema_change', 'truncate') %}
                when vendor_operation = '{{ op }}' then '{{ operation }}'
                {%- endfor %}
                when is_ddl then null
                {%- for op, (event_class, operation) in operations.items() if operation is not none and event_class not in ('schema_change', 'truncate') %}
                when vendor_operation = '{{ op }}' then '{{ operation }}'
                {%- endfor %}
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
            {{ canal__message_column_types('message.mysqlType', 'message.sqlType') }} as message_types,
            concat({{ sort_key_number('message.es') }}, {{ sort_key_number('message.id') }}) as position_sort_key,
            -- Problems of the whole message: one quarantine event, rows are not exploded.
            case
                when message._corrupt_record is not null
                    and (try_parse_json(raw_value) is null or not startswith(ltrim(raw_value), '{'))
                    then 'not_json'
                when message._corrupt_record is not null then 'type_clash'
                when vendor_operation is null and not coalesce(is_ddl, false) then 'missing_operation'
                when known_class is null then 'unknown_operation'
                when known_class in ('change', 'truncate') and table_name is null then 'missing_table'
                when known_class = 'schema_change' and table_name is null and database_name is null then 'missing_table'
                when known_class = 'change' and vendor_operation = 'DELETE' and not is_legacy_layout
                    and coalesce(size(message.data), 0) <= 0 and size(message.old) > 0
                    then 'legacy_layout'
                when known_class = 'change' and coalesce(size(row_images), 0) <= 0
                    then case when vendor_operation = 'DELETE' then 'missing_before_image' else 'missing_after_image' end
            end as message_reason
        from classified
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
            {{ row_key('declared_keys', 'row_image') }} as computed_row_key,
            case when operation = 'update' then {{ row_key('declared_keys', 'before') }} end as before_row_key
        from shaped
    ),

    events as (
        select
            keyed.*,
            case
                when message_reason is not null then message_reason
                when event_class_raw = 'change' and row_image is null
                    then case when operation = 'delete' then 'missing_before_image' else 'missing_after_image' end
                when event_class_raw = 'change' and computed_row_key is null then 'missing_key'
            end as quarantine_reason
        from keyed
    )

    select
        sha2(concat(message_id, ':', cast(row_index as string)), 256) as event_id,
        message_id,
        row_index,
        'canal' as source_format,
        case when quarantine_reason is null then event_class_raw else 'invalid' end as event_class,
        quarantine_reason,
        vendor_operation,
        operation,
        'mysql' as source_system,
        database_name as source_database,
        cast(null as string) as source_schema,
        table_name as source_table,
        nullif(concat_ws('.', database_name, table_name), '') as table_id,
        {{ effective_key_columns('declared_keys', 'row_image') }} as primary_key_columns,
        computed_row_key as row_key,
        case when before_row_key <> computed_row_key then before_row_key end as previous_row_key,
        {{ row_key_kind('declared_keys', 'row_image') }} as row_key_kind,
        before,
        after,
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
        cast(null as string) as pairing_key,
        case when event_class_raw in ('schema_change', 'truncate') then message.sql end as ddl_text,
        cast(null as string) as ddl_meta,
        map_filter(
            map(
                'es', message.es,
                'ts', message.ts,
                'id', message.id,
                'gtid', message.gtid,
                'layout', case when is_legacy_layout then 'legacy' end
            ),
            (k, v) -> v is not null
        ) as source_metadata,
        {{ event_lineage_columns() }}
    from events
{% endmacro %}
