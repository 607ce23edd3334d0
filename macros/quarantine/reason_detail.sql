{#
    `reason_detail` of a quarantine row: the specific cause behind its reason code, built from
    the staged event's own columns (the decoder's error text, the key column without a value,
    the operation that is not documented, the field whose type clashes, …). Computed in the
    quarantine model only, so it costs nothing for valid messages. docs/quarantine.md lists
    what each code's detail says.
#}
{% macro quarantine_reason_detail(reason_meaning) -%}
    coalesce(
        case quarantine_reason
            when 'not_json' then {{ not_json_detail('raw_value') }}
            when 'type_clash' then concat('fields of the wrong type: ', coalesce(
                nullif(source_metadata['type_clash'], ''), nullif({{ type_clash_fields('raw_value') }}, '')))
            when 'missing_operation' then 'the message names no operation'
            when 'unknown_operation' then concat(
                'operation "', coalesce(vendor_operation, ''), '" is not one format ', source_format, ' documents')
            when 'missing_table' then concat(
                coalesce(vendor_operation, operation, 'a change'), ' without a table name',
                case when source_database is not null then concat(' (database ', source_database, ')') else '' end)
            when 'missing_after_image' then concat(coalesce(vendor_operation, operation), ' without an after image')
            when 'missing_before_image' then concat(coalesce(vendor_operation, operation), ' without a before image')
            when 'missing_key' then {{ missing_key_detail() }}
            when 'missing_position' then concat(
                coalesce(vendor_operation, operation, 'an event'), ' without a vendor position: ',
                map(
                    {%- for format_id, fields in missing_position_fields().items() %}
                    {{ cdc_sql_string(format_id) }}, {{ cdc_sql_string(fields) }}{{ "," if not loop.last }}
                    {%- endfor %}
                )[source_format])
            when 'legacy_layout' then concat(
                'DELETE with its row in `old` and `data` null on stream ', stream_name,
                ': list the stream in var(''cdc_canal_legacy_layout'') and requeue')
            when 'missing_ddl_text' then 'a DDL record whose images hold no DDL text'
        end,
        -- decoders report their own error text (Debezium / HBase / DTS values, DTS records)
        case when quarantine_reason in ('undecodable_value', 'not_dts_avro', 'field_count_mismatch')
            then coalesce(source_metadata['decode_error'], source_metadata['value_error'])
        end,
        {{ reason_meaning }},
        quarantine_reason
    )
{%- endmacro %}


{# What makes a text not a JSON object, found without a parser's error message. #}
{% macro not_json_detail(raw_value) -%}
    case
        when {{ raw_value }} is null or trim({{ raw_value }}) = '' then 'the message is empty'
        when instr({{ raw_value }}, '\uFFFD') > 0 then concat(
            'bytes that are not UTF-8 (landed as U+FFFD) at character ', instr({{ raw_value }}, '\uFFFD'))
        when try_parse_json({{ raw_value }}) is not null then concat(
            'valid JSON, but ', lower(schema_of_variant(try_parse_json({{ raw_value }}))), ', not an object')
        when size(split({{ raw_value }}, '\\{')) > size(split({{ raw_value }}, '\\}'))
            then concat('cut short: the text ends inside an object (', length({{ raw_value }}), ' characters)')
        else concat('not valid JSON, starting "', left({{ raw_value }}, 60), '"')
    end
{%- endmacro %}


{#
    The fields of a message that do not match the enabled formats' message schemas
    (`<format>__message_schema()`), as their JSON paths with the expected type; nested struct
    fields are checked one level down. Text fields take any JSON value, so only the others are
    checked. Empty when none is found (the staged event found the clash another way).
#}
{% macro type_clash_fields(raw_value) -%}
    {%- set checked = [] -%}
    {%- for format_id in cdc_enabled_formats() -%}
        {%- set schema_macro = context.get(format_id ~ '__message_schema') -%}
        {%- if schema_macro is not none and cdc_format(format_id)['payload'] != 'avro' -%}
            {%- do checked.append((format_id, cdc_schema_field_paths(schema_macro()))) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not checked -%}
    cast(null as string)
    {%- else -%}
    case source_format
        {%- for format_id, paths in checked %}
        when {{ cdc_sql_string(format_id) }} then concat_ws(', '
            {%- for path, name, type in paths if type != 'string' %},
            case
                when get_json_object({{ raw_value }}, {{ cdc_sql_string('$' ~ path ~ '.' ~ name) }}) is not null
                    -- read alone as its schema type, the field is null (to_json drops it)
                    and to_json(from_json(
                        {% if path %}get_json_object({{ raw_value }}, {{ cdc_sql_string('$' ~ path) }}){% else %}{{ raw_value }}{% endif %},
                        {{ cdc_sql_string('`' ~ name ~ '` ' ~ type) }}
                    )) = '{}'
                    then {{ cdc_sql_string((path ~ '.' ~ name)[1:] ~ ' (expected ' ~ cdc_json_kind(type) ~ ')') }}
            end
            {%- endfor %}
        )
        {%- endfor %}
    end
    {%- endif -%}
{%- endmacro %}


{#
    (parent JSON path, field name, type) of each field of a `struct<...>` schema text and of
    its struct fields one level down; `_corrupt_record` is left out.
#}
{% macro cdc_schema_field_paths(schema_text) %}
    {% set paths = [] %}
    {% for name, type in cdc_struct_fields(schema_text) if name != '_corrupt_record' %}
        {% do paths.append(('', name, type)) %}
        {% if type.startswith('struct<') %}
            {% for inner_name, inner_type in cdc_struct_fields(type) %}
                {% do paths.append(('.' ~ name, inner_name, inner_type)) %}
            {% endfor %}
        {% endif %}
    {% endfor %}
    {{ return(paths) }}
{% endmacro %}


{# How a JSON value of a Spark type looks, for messages about it. #}
{% macro cdc_json_kind(type) -%}
    {%- if type.startswith('struct<') or type.startswith('map<') -%}an object
    {%- elif type.startswith('array<') -%}an array
    {%- elif type in ('bigint', 'int', 'smallint', 'tinyint') -%}a whole number
    {%- elif type in ('double', 'float') or type.startswith('decimal') -%}a number
    {%- elif type == 'boolean' -%}true or false
    {%- else -%}{{ type }}
    {%- endif -%}
{%- endmacro %}


{# (name, type) of the top-level fields of a `struct<name: type, ...>` text. #}
{% macro cdc_struct_fields(schema_text) %}
    {% set text = schema_text | replace('\n', ' ') | trim %}
    {% set body = text[7:-1] if text.startswith('struct<') else text %}
    {% set parts = [] %}
    {% set state = {'depth': 0, 'current': ''} %}
    {% for char in body %}
        {% if char == ',' and state.depth == 0 %}
            {% do parts.append(state.current) %}
            {% do state.update({'current': ''}) %}
        {% else %}
            {% if char == '<' %}{% do state.update({'depth': state.depth + 1}) %}{% endif %}
            {% if char == '>' %}{% do state.update({'depth': state.depth - 1}) %}{% endif %}
            {% do state.update({'current': state.current ~ char}) %}
        {% endif %}
    {% endfor %}
    {% do parts.append(state.current) %}
    {% set fields = [] %}
    {% for part in parts if ':' in part %}
        {% set name, type = part.split(':', 1) %}
        {% do fields.append((name | trim | replace('`', ''), type | trim)) %}
    {% endfor %}
    {{ return(fields) }}
{% endmacro %}


{# The key columns without a value in the image the key is read from, and the key's source. #}
{% macro missing_key_detail() -%}
    case
        when size(coalesce(primary_key_columns, array())) = 0 then 'no key column is known for the table'
        else concat(
            'no value for key column ',
            array_join(
                array_compact(transform(
                    primary_key_columns,
                    key_column__ -> if(
                        {{ key_value("(case when operation = 'delete' then before else after end)", 'key_column__') }} is null,
                        key_column__,
                        null
                    )
                )),
                ', '
            ),
            ' in the ', case when operation = 'delete' then 'before' else 'after' end, ' image (key ',
            to_json(primary_key_columns), ')'
        )
    end
{%- endmacro %}


{# Where each format's position comes from, for `missing_position` details. #}
{% macro missing_position_fields() %}
    {{ return({
        'dataworks': '`sequenceId` is missing or not a number',
        'datahub_tuple': '`_sequence_id_` is missing or not a number',
        'shareplex': '`meta.trans` / `meta.seq` are missing (an update half cannot be paired)',
        'datastream': 'neither `source_timestamp` nor `sort_keys`',
    }) }}
{% endmacro %}
