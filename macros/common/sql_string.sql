{# A Spark SQL string literal of `value` (backslashes and quotes escaped): for names that come
   from data or configuration, such as a table_id, so they reach SQL as data only. #}
{% macro cdc_sql_string(value) -%}
    '{{ value | string | replace("\\", "\\\\") | replace("'", "\\'") }}'
{%- endmacro %}


{# A Spark SQL quoted identifier of `name` (backticks doubled): for column names that come
   from data (a source column named ``a`b`` stays one column, never SQL). #}
{% macro cdc_sql_identifier(name) -%}
    `{{ name | string | replace("`", "``") }}`
{%- endmacro %}
