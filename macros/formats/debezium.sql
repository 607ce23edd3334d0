{#
    Format `debezium`: Debezium JSON change events from the MySQL, PostgreSQL, Oracle and SQL
    Server connectors (with or without the Kafka Connect `schema`/`payload` wrapper), and the
    Lindorm change stream "Debezium Format V2.0", including HBase tables.
    Mapping: docs/formats/debezium.md.

    Values are read through Spark's VARIANT (`try_parse_json`), which keeps JSON numbers exact
    (decimals up to 38 digits) where `from_json` would round them through a double.

    What every format file defines (docs/adding-a-format.md):
      <format>__message_schema()     the typed view of one message (here: of the envelope)
      (the flow itself, landed messages -> staging contract, is the staging model
       models/staging/debezium/stg_debezium__events.sql)
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


{#
    Kafka Connect schema types -> canonical types (struct/array/map values are JSON text): the
    seed cdc_type_codes, rows `debezium`/`type`, read when the model compiles.
#}
{% macro debezium__type_map() %}
    {{ return(seed_type_codes('debezium', 'type')) }}
{% endmacro %}


{#
    Debezium / Kafka Connect logical types (the schema's `name`) -> canonical types: the seed
    cdc_type_codes, rows `debezium`/`name`. Decimals are `decimal(p,s)` (see
    debezium__column_type). Times of day are text (`HH:mm:ss.fff`): Spark has no TIME type.
#}
{% macro debezium__logical_type_map() %}
    {{ return(seed_type_codes('debezium', 'name')) }}
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
                when sort_array(json_object_keys({{ message_key }})) = array('payload', 'schema')
                    then get_json_object({{ message_key }}, '$.payload')
                else {{ message_key }}
            end
        )
    end
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
    (debezium__may_need_decoders), at parse time, in a unit test, and before its landing table
    exists (a compile or lint of a new project). One query that stops at the first
    such message. Spark passes every row it reaches through a Python UDF, even inside a
    `case`, so a read without such messages skips the UDFs altogether (a third of this
    model's time on 200,000 messages without decimals). Deciding per read, not per row,
    keeps one plan: two copies of the parsing would cost more planning than a small batch
    takes to parse.
#}
{% macro debezium__read_needs_decoders(read_plan) %}
    {%- set override = var('cdc_sources', {}).get('debezium', {}) -%}
    {%- if not execute or cdc_in_unit_test() or read_plan.nothing_new or adapter.get_relation(
            database=none,
            schema=override.get('schema', var('cdc_landing_schema')),
            identifier=override.get('identifier', cdc_format('debezium')['landing_table'])) is none -%}
        {#- nothing to probe (parse time, a unit test's given rows, a run with nothing new,
            which is skipped, or a compile or lint before anything landed): the whole flow,
            decoders included -#}
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
