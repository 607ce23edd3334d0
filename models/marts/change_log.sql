{{
    config(
        materialized='incremental',
        incremental_strategy='append',
    )
}}

-- The canonical change log: one row per row-level change, from every format.
-- Append-only; a change delivered twice (same change_id) is kept once: the first landed copy.
-- Reads only what landed since its per-format marks (format_marks).
{%- set marks = format_marks() %}
with single_message_changes as (
    {{ staged_events_since(['change'], marks) }}
),

paired_updates as (
    select pairs.*
    from {{ ref('int_update_halves_paired') }} as pairs
    where {{ landed_since_mark('pairs', marks) }}
),

changes as (
    select {{ select_event_columns('single_message_changes') }} from single_message_changes
    union all
    select {{ select_event_columns('paired_updates') }} from paired_updates
),

identified as (
    select
        {{ change_id() }} as change_id,
        {{ key_bucket() }} as key_bucket,
        changes.*
    from changes
),

new_changes as (
    {{ new_rows_only('identified', 'change_id', 'sort_key') }}
)

select
    {{ change_log_columns() | join(',\n    ') }}
from new_changes
