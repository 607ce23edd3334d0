{#
    Format `debezium`: Debezium JSON change events from the MySQL, PostgreSQL, Oracle and SQL
    Server connectors (with or without the Kafka Connect `schema`/`payload` wrapper), and the
    Lindorm change stream "Debezium Format V2.0" (seed 003), including HBase tables.
    Mapping: docs/formats/debezium.md.

    Values are read through Spark's VARIANT (`try_parse_json`), which keeps JSON numbers exact
    (decimals up to 38 digits) where `from_json` would round them through a double.

    Every format file implements the same macros:
      <format>__message_schema()     the typed view of one message (here: of the envelope)
      <format>__events(landed)       landed messages (CTE name) -> event rows (staging contract)
#}

{#
    The fields of a Debezium envelope read as typed values (values of before/after and of
    source are read separately, as maps of VARIANT). Besides row changes the same topics and
    neighbouring ones carry: heartbeats ({"ts_ms"}), transaction metadata ({"status", "id",
    "event_count"}), schema change events ({"databaseName", "ddl", "tableChanges"}) and
    PostgreSQL logical decoding messages (op "m", {"message": {"prefix", "content"}}).
#}
{% macro debezium__message_schema() -%}
struct<
    op: string,
    ts_ms: bigint,
    source: struct<
        connector: string, name: string, version: string, snapshot: string,
        db: string, schema: string, namespace: string, table: string, collection: string,
        ts_ms: bigint, ts_us: bigint,
        file: string, pos: string, row: string, gtid: string,
        lsn: string, txId: string, xid: string,
        scn: string, ssn: string, commit_scn: string,
        commit_lsn: string, change_lsn: string, event_serial_no: string
    >,
    transaction: struct<id: string, total_order: bigint, data_collection_order: bigint>,
    status: string,
    id: string,
    event_count: bigint,
    databaseName: string,
    ddl: string,
    tableChanges: array<struct<type: string, id: string>>,
    message: struct<prefix: string, content: string>
>
{%- endmacro %}


{# The Kafka Connect schema of the wrapper: the value fields of `before` / `after`. #}
{% macro debezium__connect_schema() -%}
struct<
    name: string,
    fields: array<struct<
        field: string,
        name: string,
        fields: array<struct<field: string, type: string, name: string, parameters: map<string, string>>>
    >>
>
{%- endmacro %}


{# Debezium op -> (event class, canonical operation). #}
{% macro debezium__operations() %}
    {{ return({
        'c': ('change', 'insert'),
        'u': ('change', 'update'),
        'd': ('change', 'delete'),
        'r': ('change', 'read'),
        't': ('truncate', 'truncate'),
        'm': ('heartbeat', 'message'),
    }) }}
{% endmacro %}


{# Kafka Connect schema types -> canonical types (struct/array/map values are JSON text). #}
{% macro debezium__type_map() %}
    {{ return({
        'int8': 'tinyint',
        'int16': 'smallint',
        'int32': 'int',
        'int64': 'bigint',
        'float': 'float',
        'float32': 'float',
        'double': 'double',
        'float64': 'double',
        'boolean': 'boolean',
        'string': 'string',
        'bytes': 'binary',
        'struct': 'string',
        'array': 'string',
        'map': 'string',
    }) }}
{% endmacro %}


{#
    Debezium / Kafka Connect logical types (the schema's `name`) -> canonical types. Decimals
    are `decimal(p,s)` (see debezium__column_type). Times of day are text (`HH:mm:ss.fff`):
    Spark has no TIME type.
#}
{% macro debezium__logical_type_map() %}
    {{ return({
        'io.debezium.time.Date': 'date',
        'org.apache.kafka.connect.data.Date': 'date',
        'io.debezium.time.Time': 'string',
        'io.debezium.time.MicroTime': 'string',
        'io.debezium.time.NanoTime': 'string',
        'org.apache.kafka.connect.data.Time': 'string',
        'io.debezium.time.ZonedTime': 'string',
        'io.debezium.time.Timestamp': 'timestamp',
        'io.debezium.time.MicroTimestamp': 'timestamp',
        'io.debezium.time.NanoTimestamp': 'timestamp',
        'io.debezium.time.ZonedTimestamp': 'timestamp',
        'org.apache.kafka.connect.data.Timestamp': 'timestamp',
        'io.debezium.time.Year': 'int',
        'io.debezium.time.MicroDuration': 'bigint',
        'io.debezium.time.Interval': 'string',
        'io.debezium.data.VariableScaleDecimal': 'string',
        'io.debezium.data.Bits': 'binary',
        'io.debezium.data.Json': 'string',
        'io.debezium.data.Xml': 'string',
        'io.debezium.data.Uuid': 'string',
        'io.debezium.data.Enum': 'string',
        'io.debezium.data.EnumSet': 'string',
    }) }}
{% endmacro %}


{# Reason codes this format adds to the shared ones (macros/quarantine/reason_codes.sql). #}
{% macro debezium__quarantine_reasons() %}
    {{ return({
        'undecodable_value': 'a value does not decode as its declared type (Debezium decimal bytes, HBase cell bytes)',
    }) }}
{% endmacro %}


{#
    A var of the form {table_id: {column: text}} as a SQL map literal
    (map<string, map<string, string>>): `cdc_hbase_column_types`, `cdc_debezium_column_types`.
#}
{% macro debezium__table_column_map(var_name) -%}
    {%- set configured = var(var_name, {}) or {} -%}
    {%- if configured -%}
        map(
        {%- for table_id, columns in configured.items() %}
            '{{ table_id | replace("'", "\\'") }}',
            {% if columns -%}
            map({% for column, text in columns.items() %}'{{ column | replace("'", "\\'") }}', '{{ text | replace("'", "\\'") }}'{{ ", " if not loop.last }}{% endfor %})
            {%- else -%}
            cast(map() as map<string, string>)
            {%- endif %}{{ "," if not loop.last }}
        {%- endfor %}
        )
    {%- else -%}
        cast(map() as map<string, map<string, string>>)
    {%- endif -%}
{%- endmacro %}


{#
    Field info (struct<type, name, scale, precision>) of a column declared in
    `var('cdc_debezium_column_types')` for messages without a schema: a Connect type (`int64`),
    a logical name (`io.debezium.time.Date`), or a Decimal with its scale
    (`org.apache.kafka.connect.data.Decimal(2)`).
#}
{% macro debezium__declared_field_info(declared_text) -%}
    named_struct(
        'type', case when {{ declared_text }} in ({% for t in debezium__type_map() %}'{{ t }}'{{ ", " if not loop.last }}{% endfor %}) then {{ declared_text }} end,
        'name', case when {{ declared_text }} not in ({% for t in debezium__type_map() %}'{{ t }}'{{ ", " if not loop.last }}{% endfor %}) then trim(regexp_extract({{ declared_text }}, '^([^(]+)', 1)) end,
        'scale', nullif(regexp_extract({{ declared_text }}, '\\(\\s*([0-9]+)\\s*\\)', 1), ''),
        'precision', cast(null as string)
    )
{%- endmacro %}


{# Canonical type of a column from its field info. #}
{% macro debezium__column_type(info) -%}
    case
        when {{ info }}.name = 'org.apache.kafka.connect.data.Decimal'
            then case
                when try_cast({{ info }}.precision as int) > 38 or try_cast({{ info }}.scale as int) > 38 then 'string'
                else concat(
                    'decimal(',
                    cast(greatest(coalesce(try_cast({{ info }}.precision as int), 38), coalesce(try_cast({{ info }}.scale as int), 0)) as string),
                    ',', coalesce({{ info }}.scale, '0'), ')'
                )
            end
        {%- for name, canonical in debezium__logical_type_map().items() %}
        when {{ info }}.name = '{{ name }}' then '{{ canonical }}'
        {%- endfor %}
        when {{ info }}.name like 'io.debezium.data.geometry.%' then 'string'
        {%- for connect_type, canonical in debezium__type_map().items() %}
        when {{ info }}.type = '{{ connect_type }}' then '{{ canonical }}'
        {%- endfor %}
        else 'string'
    end
{%- endmacro %}


{# A whole number given as text, when it is one (and fits a bigint), else null. #}
{% macro debezium__whole_number(value) -%}
    case when {{ value }} rlike '^-?[0-9]{1,19}$' then try_cast({{ value }} as bigint) end
{%- endmacro %}


{# A count of `units_per_second` since midnight -> `HH:mm:ss.f…` (`digits` fraction digits). #}
{% macro debezium__time_of_day(value, units_per_second, digits) -%}
    format_string(
        '%s%02d:%02d:%02d.%0{{ digits }}d',
        case when {{ debezium__whole_number(value) }} < 0 then '-' else '' end,
        abs({{ debezium__whole_number(value) }}) div {{ units_per_second * 3600 }},
        (abs({{ debezium__whole_number(value) }}) div {{ units_per_second * 60 }}) % 60,
        (abs({{ debezium__whole_number(value) }}) div {{ units_per_second }}) % 60,
        abs({{ debezium__whole_number(value) }}) % {{ units_per_second }}
    )
{%- endmacro %}


{#
    Canonical text of one value from its text and field info. Dates -> yyyy-MM-dd; times of day
    -> HH:mm:ss.SSS (Time), .SSSSSS (MicroTime), .SSSSSSSSS (NanoTime); timestamps -> UTC
    yyyy-MM-dd HH:mm:ss.SSS (Timestamp, ms), .SSSSSS (MicroTimestamp, ZonedTimestamp),
    .SSSSSSSSS (NanoTimestamp). Values outside year 0001..9999 or of an unexpected shape keep
    their text. Decimals are decoded afterwards by cdc_decode_debezium_decimals.
#}
{% macro debezium__logical_value(value, info) -%}
    {%- set number = debezium__whole_number(value) -%}
    case
        when {{ value }} is null or {{ info }}.name is null then {{ value }}
        when {{ info }}.name in ('io.debezium.time.Date', 'org.apache.kafka.connect.data.Date')
            and {{ number }} between -2932896 and 2932896
            then cast(date_add(date'1970-01-01', cast({{ number }} as int)) as string)
        when {{ info }}.name in ('io.debezium.time.Time', 'org.apache.kafka.connect.data.Time')
            and {{ number }} between -999999999999 and 999999999999
            then {{ debezium__time_of_day(value, 1000, 3) }}
        when {{ info }}.name = 'io.debezium.time.MicroTime' and {{ number }} between -999999999999999 and 999999999999999
            then {{ debezium__time_of_day(value, 1000000, 6) }}
        when {{ info }}.name = 'io.debezium.time.NanoTime' and {{ number }} between -999999999999999999 and 999999999999999999
            then {{ debezium__time_of_day(value, 1000000000, 9) }}
        when {{ info }}.name in ('io.debezium.time.Timestamp', 'org.apache.kafka.connect.data.Timestamp')
            and {{ number }} between -62135596800000 and 253402300799999
            then date_format(timestamp_millis({{ number }}), 'yyyy-MM-dd HH:mm:ss.SSS')
        when {{ info }}.name = 'io.debezium.time.MicroTimestamp'
            and {{ number }} between -62135596800000000 and 253402300799999999
            then date_format(timestamp_micros({{ number }}), 'yyyy-MM-dd HH:mm:ss.SSSSSS')
        when {{ info }}.name = 'io.debezium.time.NanoTimestamp' and {{ number }} is not null
            then concat(
                date_format(timestamp_seconds(({{ number }} - pmod({{ number }}, 1000000000)) div 1000000000), 'yyyy-MM-dd HH:mm:ss'),
                '.',
                lpad(cast(pmod({{ number }}, 1000000000) as string), 9, '0')
            )
        when {{ info }}.name = 'io.debezium.time.ZonedTimestamp'
            then coalesce(date_format(try_to_timestamp({{ value }}), 'yyyy-MM-dd HH:mm:ss.SSSSSS'), {{ value }})
        else {{ value }}
    end
{%- endmacro %}


{# Text of a VARIANT value: strings unquoted, numbers exact, objects/arrays as JSON, null. #}
{% macro debezium__value_text(variant_value) -%}
    cast({{ variant_value }} as string)
{%- endmacro %}


{#
    The key columns the Kafka record key names, in its order: the fields of its `payload`
    when it is a Connect envelope ({"schema", "payload"}), else of the key object itself
    (JSON converter without schemas). Null without a key, or for a key that is no object
    (a primitive key names no column).
#}
{% macro debezium__record_key_columns(message_key) -%}
    case when {{ message_key }} is not null then
        json_object_keys(
            case
                when array_sort(json_object_keys({{ message_key }})) = array('payload', 'schema')
                    then get_json_object({{ message_key }}, '$.payload')
                else {{ message_key }}
            end
        )
    end
{%- endmacro %}


{# True when `path` holds a JSON value other than null. #}
{% macro debezium__is_given(variant_value, path) -%}
    coalesce(
        try_variant_get({{ variant_value }}, '{{ path }}') is not null
        and not is_variant_null(try_variant_get({{ variant_value }}, '{{ path }}')),
        false
    )
{%- endmacro %}


{#
    SQL Server LSN text (`00000027:00000758:0005`, or the 20 hex digits) -> its number as
    decimal text (80 bits, exact), so that it orders as a number.
#}
{% macro debezium__lsn_number(lsn) -%}
    {%- set hex -%}
        case
            when {{ lsn }} rlike '^[0-9a-fA-F]{1,8}:[0-9a-fA-F]{1,8}:[0-9a-fA-F]{1,4}$'
                then concat(
                    lpad(split_part({{ lsn }}, ':', 1), 8, '0'),
                    lpad(split_part({{ lsn }}, ':', 2), 8, '0'),
                    lpad(split_part({{ lsn }}, ':', 3), 4, '0')
                )
            when {{ lsn }} rlike '^[0-9a-fA-F]{1,20}$' then lpad({{ lsn }}, 20, '0')
        end
    {%- endset -%}
    cast(
        cast(conv(substr({{ hex }}, 1, 8), 16, 10) as decimal(38, 0)) * 281474976710656
        + cast(conv(substr({{ hex }}, 9, 12), 16, 10) as decimal(38, 0))
        as string
    )
{%- endmacro %}


{#
    True (SQL) for a landed message that may hold a value only the Python UDFs decode: a
    Decimal / VariableScaleDecimal of a Kafka Connect schema, or a cell of a Lindorm HBase
    table (Lindorm sources carry `namespace`). A text test on the raw message. JSON `\u`
    escapes could hide either word, so such messages count as maybe; declared decimal
    columns (var `cdc_debezium_column_types`) make every message a maybe.
#}
{% macro debezium__may_need_decoders(raw_value) -%}
    {%- set declared = var('cdc_debezium_column_types', {}) or {} -%}
    {%- set declares_decimals = [] -%}
    {%- for columns in declared.values() -%}
        {%- for text in (columns or {}).values() if 'Decimal' in (text | string) -%}
            {%- do declares_decimals.append(text) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if declares_decimals -%}
        true
    {%- else -%}
        coalesce(
            contains({{ raw_value }}, 'Decimal')
            or contains({{ raw_value }}, 'namespace')
            or contains({{ raw_value }}, '\\u'),
            false
        )
    {%- endif -%}
{%- endmacro %}


{#
    Whether the staging model must call the Python UDFs for this read (`read_plan`, from
    staging_read_plan): true when a message it reads may need them
    (debezium__may_need_decoders), and at parse time. One query that stops at the first
    such message. Spark passes every row it reaches through a Python UDF, even inside a
    `case`, so a read without such messages skips the UDFs altogether (a third of this
    model's time on 200,000 messages without decimals). Deciding per read, not per row,
    keeps one plan: two copies of the parsing would cost more planning than a small batch
    takes to parse.
#}
{% macro debezium__read_needs_decoders(read_plan) %}
    {%- if not execute -%}
        {{ return(true) }}
    {%- endif -%}
    {%- set probe -%}
        select 1 as found
        from ({{ landed_messages('debezium', read_plan) }}) as landed
        where {{ debezium__may_need_decoders('landed.raw_value') }}
        limit 1
    {%- endset -%}
    {{ return(run_query(probe).rows | length > 0) }}
{% endmacro %}


{% macro debezium__events(landed, decode_values=true) %}
    {%- set operations = debezium__operations() -%}
    {%- set placeholder = var('cdc_debezium_unavailable_value', '__debezium_unavailable_value') -%}
    with parsed as (
        select
            landed.*,
            try_parse_json(landed.raw_value) as message_variant,
            left(ltrim(landed.raw_value), 1) = '{' as is_object,
            trim(landed.raw_value) = 'null' as is_null_value,
            {{ debezium__record_key_columns('landed.message_key') }} as record_key_columns
        from {{ landed }} as landed
    ),

    -- The envelope is `payload` when the message is wrapped ({"schema", "payload"}), else the
    -- message itself. A null value (Kafka tombstone) or a null payload is a tombstone.
    enveloped as (
        select
            parsed.*,
            try_variant_get(message_variant, '$.payload') is not null as has_payload_wrapper,
            coalesce(try_variant_get(message_variant, '$.payload'), message_variant) as envelope,
            try_variant_get(message_variant, '$.schema', '{{ debezium__connect_schema() | replace("\n", " ") }}') as connect_schema
        from parsed
    ),

    fields as (
        select
            enveloped.*,
            is_null_value or (has_payload_wrapper and is_variant_null(envelope)) as is_tombstone,
            try_variant_get(envelope, '$', '{{ debezium__message_schema() | replace("\n", " ") }}') as message,
            try_variant_get(envelope, '$.source', 'map<string, variant>') as source_values,
            try_variant_get(envelope, '$.before', 'map<string, variant>') as before_values,
            try_variant_get(envelope, '$.after', 'map<string, variant>') as after_values,
            {{ debezium__is_given('envelope', '$.before') }} as before_given,
            {{ debezium__is_given('envelope', '$.after') }} as after_given,
            {{ debezium__is_given('envelope', '$.source') }} as source_given,
            {{ debezium__is_given('envelope', '$.ts_ms') }} as ts_ms_given,
            {{ debezium__is_given('envelope', '$.source.ts_ms') }} as source_ts_ms_given
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
            -- Lindorm: `source.namespace`, no `connector` (seed 003)
            coalesce(map_contains_key(source_values, 'namespace') and not map_contains_key(source_values, 'connector'), false) as is_lindorm,
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

    classified as (
        select
            tabled.*,
            case
                when is_tombstone then 'heartbeat'
                {%- for op, (event_class, _) in operations.items() %}
                when message.op = '{{ op }}' then '{{ event_class }}'
                {%- endfor %}
                when message.op is not null then null
                when message.status in ('BEGIN', 'END') then 'transaction'
                when message.ddl is not null and lower(coalesce(try_element_at(message.tableChanges, 1).type, regexp_extract(message.ddl, '^\\s*([A-Za-z]+)', 1))) in ('drop', 'truncate')
                    and table_name is not null then 'truncate'
                when message.ddl is not null then 'schema_change'
                when not before_given and not after_given and (ts_ms_given or source_given) then 'heartbeat'
            end as known_class,
            case
                when is_tombstone then 'tombstone'
                {%- for op, (_, operation) in operations.items() %}
                when message.op = '{{ op }}' then '{{ operation }}'
                {%- endfor %}
                when message.op is not null then null
                when message.status = 'BEGIN' then 'begin'
                when message.status = 'END' then 'commit'
                when message.ddl is not null
                    then coalesce(lower(coalesce(try_element_at(message.tableChanges, 1).type, regexp_extract(message.ddl, '^\\s*([A-Za-z]+)', 1))), 'ddl')
                when not before_given and not after_given and (ts_ms_given or source_given) then 'heartbeat'
            end as known_operation,
            -- field info per column: the message's schema, else var('cdc_debezium_column_types')
            map_concat(
                transform_values(
                    coalesce({{ debezium__table_column_map('cdc_debezium_column_types') }}[table_key], cast(map() as map<string, string>)),
                    (column_name, declared) -> {{ debezium__declared_field_info('declared') }}
                ),
                schema_info
            ) as field_info
        from tabled
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
            transform_values(before_raw, (column_name, value) -> {{ debezium__logical_value('value', 'field_info[column_name]') }}) as before_logical,
            transform_values(after_filled, (column_name, value) -> {{ debezium__logical_value('value', 'field_info[column_name]') }}) as after_logical
        from filled
    ),

    {%- if decode_values %}
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
                coalesce({{ debezium__table_column_map('cdc_hbase_column_types') }}[table_key], cast(map() as map<string, string>))
            ) as before_hbase,
            cdc_decode_hbase_image(
                case when is_hbase then after_filled end,
                coalesce({{ debezium__table_column_map('cdc_hbase_column_types') }}[table_key], cast(map() as map<string, string>))
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
            cast(null as struct<image: map<string, string>, column_types: map<string, string>, error: string>) as after_hbase
        from logical
    ),
    {%- endif %}

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
                    then map_filter(after_image, (column_name, value) -> value is null or value not in ('{{ placeholder }}', base64(encode('{{ placeholder }}', 'UTF-8'))))
                else after_image
            end as after,
            case
                when is_hbase then map_concat(
                    coalesce(before_hbase.column_types, cast(map() as map<string, string>)),
                    coalesce(after_hbase.column_types, cast(map() as map<string, string>))
                )
                else map_concat(
                    transform_values(
                        map_concat(coalesce(before_raw, cast(map() as map<string, string>)), coalesce(after_raw, cast(map() as map<string, string>))),
                        (column_name, value) -> 'string'
                    ),
                    transform_values(field_info, (column_name, info) -> {{ debezium__column_type('info') }})
                )
            end as column_types,
            -- configuration, else the Kafka record key (docs/formats/debezium.md)
            case when is_hbase then array('ROW') else {{ declared_key_columns('table_key', ['record_key_columns']) }} end as declared_keys
        from imaged
    ),

    keyed as (
        select
            shaped.*,
            coalesce(operation = 'update' and size(after) < size(after_image), false) as after_is_partial,
            case when operation = 'delete' then before else after end as key_image
        from shaped
    ),

    with_keys as (
        select
            keyed.*,
            {{ row_key('declared_keys', 'key_image') }} as computed_row_key
        from keyed
    ),

    -- Position parts, compared as numbers, per connector (docs/formats/debezium.md).
    positioned as (
        select
            with_keys.*,
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
                when connector in ('mysql', 'mariadb') then nullif(concat_ws(':', nullif(message.source.file, ''), message.source.pos, message.source.row), '')
                when connector = 'postgresql' then message.source.lsn
                when connector = 'oracle' then message.source.scn
                when connector = 'sqlserver'
                    then nullif(concat_ws('/', message.source.commit_lsn, message.source.change_lsn, message.source.event_serial_no), '')
                else cast(message.source.ts_ms as string)
            end as position_text
        from with_keys
    ),

    events as (
        select
            positioned.*,
            case
                when is_tombstone then null
                when message_variant is null or not is_object then 'not_json'
                when (before_given and before_values is null)
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
                when known_class = 'change' and computed_row_key is null then 'missing_key'
            end as quarantine_reason
        from positioned
    )

    select
        sha2(concat(message_id, ':0'), 256) as event_id,
        message_id,
        0 as row_index,
        'debezium' as source_format,
        case when quarantine_reason is null then event_class_raw else 'invalid' end as event_class,
        quarantine_reason,
        coalesce(message.op, message.status, try_element_at(message.tableChanges, 1).type) as vendor_operation,
        operation,
        case
            when is_hbase then 'hbase'
            when is_lindorm then 'lindorm'
            else connector
        end as source_system,
        database_name as source_database,
        schema_name as source_schema,
        table_name as source_table,
        table_key as table_id,
        {{ effective_key_columns('declared_keys', 'key_image') }} as primary_key_columns,
        computed_row_key as row_key,
        case
            when operation = 'update' and {{ row_key('declared_keys', 'before') }} <> computed_row_key
                then {{ row_key('declared_keys', 'before') }}
        end as previous_row_key,
        {{ row_key_kind('declared_keys', 'key_image') }} as row_key_kind,
        before,
        after,
        after_is_partial,
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
        cast(null as string) as pairing_key,
        message.ddl as ddl_text,
        cast(null as string) as ddl_meta,
        map_filter(
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
                    'type_clash', case when quarantine_reason = 'type_clash' then concat_ws(', ',
                        case when before_given and before_values is null then 'before (expected an object)' end,
                        case when after_given and after_values is null then 'after (expected an object)' end,
                        case when source_given and source_values is null then 'source (expected an object)' end,
                        case when ts_ms_given and message.ts_ms is null then 'ts_ms (expected a whole number)' end,
                        case when source_ts_ms_given and message.source.ts_ms is null then 'source.ts_ms (expected a whole number)' end
                    ) end
                )
            ),
            (k, v) -> v is not null
        ) as source_metadata,
        {{ event_lineage_columns() }}
    from events
{% endmacro %}
