{# A Spark SQL string literal of `value` (backslashes and quotes escaped): for names that come
   from data or configuration, such as a table_id, so they reach SQL as data only. #}
{% macro cdc_sql_string(value) -%}
    '{{ value | string | replace("\\", "\\\\") | replace("'", "\\'") }}'
{%- endmacro %}
