{#
    Format `canal`: Canal FlatMessage JSON, as written by Canal itself and by DTS ("Canal Json").
    One message carries one statement: `data[]` holds one row per affected row, `old[]` the
    previous values of the changed columns of each UPDATE row, `type` the statement kind,
    `isDdl` + `sql` DDL, `mysqlType`/`sqlType` the column types, `es` the binlog time, `id` the
    position, `ts` the time the tool wrote the message. Mapping: docs/formats/canal.md.

    Its flow (landed messages -> staging contract) is models/staging/canal/stg_canal__events.sql;
    this file holds its from_json schema and value conversions (docs/adding-a-format.md).
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
    The vocabularies are data: Canal's `type` codes in seeds/cdc_operation_codes.csv (a DDL
    code without an operation there, DTS `DDL` and DRS `INIT_DDL`, and any message with
    `isDdl` = true take it from the statement: canal__ddl_operation) and its java.sql.Types
    numbers in seeds/cdc_type_codes.csv.
#}


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
    `sql_type_names` (seeds/cdc_type_codes.csv as one map). Computed once per message (not per
    row: the lambdas are interpreted).
#}
{% macro canal__message_column_types(mysql_types, sql_types, sql_type_names) -%}
    map_concat(
        transform_values(
            coalesce({{ sql_types }}, cast(map() as map<string, string>)),
            (column_name, type_number) -> coalesce(
                try_element_at({{ sql_type_names }}, trim(type_number)),
                'string'
            )
        ),
        transform_values(
            map_filter(coalesce({{ mysql_types }}, cast(map() as map<string, string>)), (column_name, mysql_type) -> nullif(trim(mysql_type), '') is not null),
            {#- only a type with a scale has spaces to drop: skip the expression for the rest #}
            (column_name, mysql_type) -> case
                when contains(mysql_type, ',') then lower(regexp_replace(
                    trim(mysql_type), '\\(\\s*([0-9]+)\\s*,\\s*([0-9]+)\\s*\\)', '($1,$2)'
                ))
                else lower(trim(mysql_type))
            end
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
    {#- one substring test of the message's type names first: most messages have no binary
        column, and the per-column regular expression is what costs #}
    case
        when contains(concat_ws(' ', map_values({{ message_types }})), 'binary')
            or contains(concat_ws(' ', map_values({{ message_types }})), 'blob')
            then map_keys(map_filter(
                {{ message_types }},
                (column_name, column_type) -> regexp_extract(column_type, '^\\s*([a-z]+)', 1)
                    in ('binary', 'varbinary', 'blob', 'tinyblob', 'mediumblob', 'longblob')
            ))
        else cast(array() as array<string>)
    end
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
