{#
    Warns for rows of a typed per-table model whose `_uncastable_columns` is not empty: a value
    whose text does not convert to the column's type shows as null there, and this test says
    so instead of letting it pass unnoticed (docs/typed-tables.md). A warning, not an error:
    the source sent it, the canonical tables keep the text, and the build must go on.
    Set `severity: error` on the test where a bad value should stop the pipeline.
#}
{% test typed_values_all_converted(model, column_name) %}
    {{ config(severity='warn') }}
    select _row_key, {{ column_name }}
    from {{ model }}
    where size({{ column_name }}) > 0
{% endtest %}
