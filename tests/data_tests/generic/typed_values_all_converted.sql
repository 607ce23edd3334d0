{#
    Fails for rows of a typed per-table model whose `_uncastable_columns` is not empty: a value
    whose text does not convert to the column's type shows as null there, and this test says
    so instead of letting it pass unnoticed (docs/typed-tables.md).
#}
{% test typed_values_all_converted(model, column_name) %}
    select _row_key, {{ column_name }}
    from {{ model }}
    where size({{ column_name }}) > 0
{% endtest %}
