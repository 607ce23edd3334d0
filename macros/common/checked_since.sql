{#
    A data test's filter to the rows it has not checked yet: in a `dbt build`, those of each
    format landed after the marks through which the test last passed; `true` when everything
    is checked (`dbt test`, `--full-refresh`, `cdc_full_checks`, a test that never passed, a
    format with no mark). How the marks are kept: the adapter's checked_since.sql
    (python_udfs/dbt_plugin/include/macros/). Only for rows whose check does not depend on
    rows landed before them, in the same relation or another (docs/operations.md).
#}
{% macro checked_since(alias, format_id=none) -%}
    {%- set marks = cdc_checked_window() -%}
    {%- if format_id is not none -%}
        {{- alias ~ ".landed_at > timestamp'" ~ marks[format_id] ~ "'" if format_id in marks else 'true' -}}
    {%- else -%}
        {{- cdc_rows_after_marks(alias, marks) -}}
    {%- endif -%}
{%- endmacro %}


{#
    committed_read_plan (every committed message of a format) less the messages landed at or
    before the test's checked mark (checked_since): what a test reading landing tables checks.
#}
{% macro checked_read_plan(format_id) %}
    {%- set plan = committed_read_plan(format_id) -%}
    {%- set marks = cdc_checked_window() -%}
    {%- if format_id in marks -%}
        {%- do plan.update({'mark': "timestamp'" ~ marks[format_id] ~ "'", 'strict': true}) -%}
    {%- endif -%}
    {{ return(plan) }}
{% endmacro %}
