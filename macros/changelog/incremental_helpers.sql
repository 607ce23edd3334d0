{#
    Keep one row per `key_column` from the CTE `new_rows` (the earliest by `order_by`), and in
    an incremental run drop the keys the model already holds.

    The existing keys are found with a semi join of {{ this }} against the (small) new batch,
    then removed with an anti join against that (smaller) set: both joins broadcast the small
    side, so a small batch never shuffles the whole target.
#}
{% macro new_rows_only(new_rows, key_column, order_by) -%}
    select deduplicated.*
    from (
        select
            {{ new_rows }}.*,
            row_number() over (partition by {{ key_column }} order by {{ order_by }}) as row_rank
        from {{ new_rows }}
    ) as deduplicated
    {%- if is_incremental() %}
    left anti join (
        select existing.{{ key_column }}
        from {{ this }} as existing
        left semi join {{ new_rows }} as incoming
            on existing.{{ key_column }} = incoming.{{ key_column }}
    ) as already_held
        on deduplicated.{{ key_column }} = already_held.{{ key_column }}
    {%- endif %}
    where deduplicated.row_rank = 1
{%- endmacro %}


{# High-water mark of `column` in {{ this }}: the filter bound for an incremental read. #}
{% macro high_water_mark(column='landed_at') -%}
    {%- if is_incremental() -%}
        (select coalesce(max({{ column }}), timestamp'1970-01-01 00:00:00') from {{ this }})
    {%- else -%}
        timestamp'1970-01-01 00:00:00'
    {%- endif -%}
{%- endmacro %}
