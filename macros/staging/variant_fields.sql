{#
    True when `path` of a VARIANT holds a JSON value other than null: the formats parsed as
    VARIANT (Debezium, Datastream) tell a missing field from a field of the wrong type with it
    (reason code type_clash).
#}
{% macro variant_is_given(variant_value, path) -%}
    coalesce(
        try_variant_get({{ variant_value }}, '{{ path }}') is not null
        and not is_variant_null(try_variant_get({{ variant_value }}, '{{ path }}')),
        false
    )
{%- endmacro %}


{#
    One boolean column per entry of `given_paths` (column name -> JSON path): variant_is_given
    of that path of `variant_value`. Select-list items.
#}
{% macro variant_given_columns(variant_value, given_paths) -%}
    {%- for column_name, path in given_paths.items() %}
    {{ variant_is_given(variant_value, path) }} as {{ column_name }}{{ "," if not loop.last }}
    {%- endfor %}
{%- endmacro %}
