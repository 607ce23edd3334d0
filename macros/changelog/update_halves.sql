{#
    Update halves (two-message updates) that belong together share (source_format, table_id,
    pairing_key). A pairing key may hold several updates (SharePlex: one row updated twice in
    one transaction, each UPDATE BEFORE / UPDATE AFTER its own `seq`): the k-th distinct before
    half pairs with the k-th distinct after half, in sort_key order. Copies of one half
    (at-least-once delivery) share its source_position and count once.
    `halves` is a relation (CTE name) of update_half events; adds `pair_ordinal`.
#}
{% macro update_half_ordinals(halves) -%}
    select
        positioned.*,
        dense_rank() over (
            partition by source_format, table_id, pairing_key, operation
            order by position_order, coalesce(source_position, '')
        ) as pair_ordinal
    from (
        select
            {{ halves }}.*,
            min(sort_key) over (
                partition by source_format, table_id, pairing_key, operation, coalesce(source_position, '')
            ) as position_order
        from {{ halves }}
    ) as positioned
{%- endmacro %}
