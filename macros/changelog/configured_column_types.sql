{#
    Column types declared per table in configuration, `var('cdc_column_types')`:
    {"<table_id>": {"<column>": "<type>", ...}}, for formats whose messages carry no type
    information (DataHub Tuple, Debezium without schemas, SharePlex, Datastream JSON). A declared
    type overrides what the message says, as configured keys do; types are canonical or
    source type names (macro typed_spark_type maps them; an unknown name reads as string).
#}
{% macro configured_column_types_map() -%}
    map(
    {%- for table_id, columns in var('cdc_column_types', {}).items() %}
        {{ cdc_sql_string(table_id) }}, map(
        {%- for column, type in columns.items() %}
            {{ cdc_sql_string(column) }}, {{ cdc_sql_string(type) }}{{ ", " if not loop.last }}
        {%- endfor %}
        ){{ "," if not loop.last }}
    {%- endfor %}
    )
{%- endmacro %}


{#
    `column_types` with the table's configured types laid over it, for the columns the event's
    images carry (a configured column the row does not have gets no type). Without
    configuration it is `column_types` itself, at no cost.
#}
{% macro with_configured_column_types(table_id, column_types, before, after) -%}
    {%- if var('cdc_column_types', {}) -%}
    case
        when {{ configured_column_types_map() }}[{{ table_id }}] is null then {{ column_types }}
        else map_concat(
            map_filter(
                coalesce({{ column_types }}, cast(map() as map<string, string>)),
                (column_name__, type__) -> not map_contains_key({{ configured_column_types_map() }}[{{ table_id }}], column_name__)
            ),
            map_filter(
                {{ configured_column_types_map() }}[{{ table_id }}],
                (column_name__, type__) -> map_contains_key(
                    map_concat(
                        coalesce({{ before }}, cast(map() as map<string, string>)),
                        coalesce({{ after }}, cast(map() as map<string, string>))
                    ),
                    column_name__
                )
            )
        )
    end
    {%- else -%}
    {{ column_types }}
    {%- endif -%}
{%- endmacro %}
