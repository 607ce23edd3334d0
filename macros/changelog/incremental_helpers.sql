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
        select /*+ broadcast(incoming) */ existing.{{ key_column }}
        from {{ this }} as existing
        left semi join (select distinct {{ key_column }} from {{ new_rows }}) as incoming
            on existing.{{ key_column }} = incoming.{{ key_column }}
    ) as already_held
        on deduplicated.{{ key_column }} = already_held.{{ key_column }}
    {%- endif %}
    where deduplicated.row_rank = 1
{%- endmacro %}


{#
    Per-format high-water marks of `this`, read once when the model runs (one small query):
    {format id: SQL timestamp literal}. Landing time only grows within one landing table (one
    format), not across formats: a format's batch may become visible after another format's
    later batch was processed, so one max over every format could skip it. Empty outside an
    incremental run and at parse time (every format then starts at the epoch).
#}
{% macro format_marks(column='landed_at') %}
    {%- set marks = {} -%}
    {%- if execute and is_incremental() -%}
        {%- set rows = run_query(
            "select source_format, cast(max(" ~ column ~ ") as string) as mark from " ~ this
            ~ " where source_format is not null group by source_format"
        ).rows -%}
        {%- for row in rows if row[1] is not none -%}
            {%- do marks.update({row[0]: "timestamp'" ~ row[1] ~ "'"}) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(marks) }}
{% endmacro %}


{#
    SQL condition: the row of `relation` landed at or after its format's mark (format_marks).
    Formats without a mark start at the epoch. Written as literal comparisons joined by `or`
    (not a `case`), so Parquet can skip the files of batches already processed.
#}
{% macro landed_since_mark(relation, marks) -%}
    {%- if marks -%}
        (
            {%- for format_id, mark in marks.items() %}
            ({{ relation }}.source_format = {{ cdc_sql_string(format_id) }} and {{ relation }}.landed_at >= {{ mark }}) or
            {%- endfor %}
            {{ relation }}.source_format not in ({% for format_id in marks %}{{ cdc_sql_string(format_id) }}{{ ", " if not loop.last }}{% endfor %})
            or {{ relation }}.source_format is null
        )
    {%- else -%}
        true
    {%- endif -%}
{%- endmacro %}


{#
    The staging events of every enabled format whose class is one of `event_classes`, landed
    at or after that format's mark (format_marks): one select per staging model, each filtered
    on a literal landing time, so Parquet skips the files of batches already processed and a
    model with nothing new reads next to nothing.
#}
{% macro staged_events_since(event_classes, marks) -%}
    {%- for format_id in cdc_enabled_formats() %}
    select staged.*
    from {{ ref(cdc_format(format_id)['staging_model']) }} as staged
    where staged.event_class in ({% for c in event_classes %}{{ cdc_sql_string(c) }}{{ ", " if not loop.last }}{% endfor %})
        {%- if format_id in marks %}
        and staged.landed_at >= {{ marks[format_id] }}
        {%- endif %}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
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
    The per-format high-water marks of current_state and row_history, read once when the
    model runs: {format id: SQL timestamp literal}. They keep what they have read per format
    in the map column `refreshed_through_by_format` (a model's rows need not carry every
    format it read, e.g. a change that lost to a newer one). Empty outside incremental runs.
#}
{% macro state_marks() %}
    {%- set marks = {} -%}
    {%- if execute and is_incremental() -%}
        {%- set rows = run_query(
            "select source_format, cast(max(mark) as string) as mark from ("
            ~ "select explode(refreshed_through_by_format) as (source_format, mark) from " ~ this
            ~ ") as marks where source_format is not null group by source_format"
        ).rows -%}
        {%- for row in rows if row[1] is not none -%}
            {%- do marks.update({row[0]: "timestamp'" ~ row[1] ~ "'"}) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(marks) }}
{% endmacro %}
