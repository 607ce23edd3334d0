{#
    "The table as of time T": the live rows of `table_id` at source time `as_of` (UTC), from
    row_history. Use it in a model or an analysis:

        select * from ({{ table_as_of('shop.orders', "timestamp'2024-01-01 00:00:00'") }})

    A version is valid from its valid_from (inclusive; null: since the beginning of history)
    to its valid_to (exclusive; null on the current version). A version ended at an unknown
    time (valid_to null, not current) is never live in the past: which past is unknown.
#}
{% macro table_as_of(table_id, as_of) %}
    select
        history.table_id,
        history.row_key,
        history.row_image,
        history.operation as last_operation,
        history.valid_from,
        history.valid_to,
        history.sort_key
    from {{ ref('row_history') }} as history
    where history.table_id = {{ cdc_sql_string(table_id) }}
        and (history.valid_from is null or history.valid_from <= {{ as_of }})
        and (history.valid_to > {{ as_of }} or (history.valid_to is null and history.is_current))
        and not history.is_deleted
{% endmacro %}
