{# A Spark SQL string literal of `value`, for names and values that come from data or
   configuration (a table_id, a column name): they reach SQL as data only. Characters other
   than ASCII letters, digits, space, `_`, `.` and `-` are written as `\uXXXX` escapes (UTF-16,
   so surrogate pairs above U+FFFF): the literal's own text holds no quote, backslash, control
   character, Jinja delimiter or `$` (Spark substitutes `${env:HOME}`-style variables in the
   SQL text, inside literals too, before parsing it). #}
{% macro cdc_sql_string(value) -%}
    {%- set text = value | string -%}
    {%- if modules.re.fullmatch('[A-Za-z0-9 _.-]*', text) -%}
        '{{ text }}'
    {%- else -%}
        '{% for char in text %}{% if modules.re.fullmatch('[A-Za-z0-9 _.-]', char) %}{{ char }}{% else %}{% set units = char.encode('utf-16-be').hex() %}\u{{ units[0:4] }}{% if units | length > 4 %}\u{{ units[4:8] }}{% endif %}{% endif %}{% endfor %}'
    {%- endif -%}
{%- endmacro %}


{# A Spark SQL quoted identifier of `name` (backticks doubled). Only for names the project
   or its configuration chooses: Spark substitutes `${...}` inside identifiers too, and an
   identifier cannot escape it, so names that come from data go in as cdc_sql_string literals
   (the typed models name their columns with named_struct). #}
{% macro cdc_sql_identifier(name) -%}
    `{{ name | string | replace("`", "``") }}`
{%- endmacro %}
