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


{#
    Per-format high-water mark: the filter bound for an incremental read of the rows of one
    source format. Landing time only grows within one landing table (one format), not across
    formats: a format's batch may become visible after another format's later batch was
    processed, so one max over every format would skip it. `relation` is the alias of the
    relation being filtered (it has `source_format`); `this` must have `source_format` and
    `column`. Formats `this` has not seen yet start at the epoch.
#}
{% macro format_high_water_mark(relation, column='landed_at') -%}
    {%- if is_incremental() -%}
        coalesce(
            (
                select max(marks.{{ column }}) from {{ this }} as marks
                where marks.source_format = {{ relation }}.source_format
            ),
            timestamp'1970-01-01 00:00:00'
        )
    {%- else -%}
        timestamp'1970-01-01 00:00:00'
    {%- endif -%}
{%- endmacro %}


{#
    The CTE body `prior_marks` (source_format, high_water_mark) of current_state and
    row_history: the latest landing time read per format, from their map column
    `refreshed_through_by_format`. Incremental runs only.
#}
{% macro state_prior_marks() -%}
    select
        source_format,
        max(mark) as high_water_mark
    from (
        select explode(refreshed_through_by_format) as (source_format, mark)
        from {{ this }}
    ) as marks
    group by source_format
{%- endmacro %}


{#
    The per-format high-water mark of current_state and row_history, which keep what they
    have read per format in the map column `refreshed_through_by_format` (a model's rows need
    not carry every format it read, e.g. a change that lost to a newer one). Needs the CTE
    `prior_marks` (macro state_prior_marks) in incremental runs.
#}
{% macro state_high_water_mark(relation) -%}
    {%- if is_incremental() -%}
        coalesce(
            (
                select max(prior_marks.high_water_mark) from prior_marks
                where prior_marks.source_format = {{ relation }}.source_format
            ),
            timestamp'1970-01-01 00:00:00'
        )
    {%- else -%}
        timestamp'1970-01-01 00:00:00'
    {%- endif -%}
{%- endmacro %}
