{{
    config(
        materialized='incremental',
        incremental_strategy='append',
    )
}}

-- Row changes whose declared key columns are absent from their row, keyed by the key their
-- table was last seen with (the one precedence of every format, docs/canonical-contract.md:
-- configuration, the message's key, then the table's previously seen key, before `missing_key`).
-- Staging marks such an event invalid (`missing_key`); a later step, not the staging statement,
-- looks for the table's key, so the common batch (no such event) costs one `limit 1` probe.
-- A table's seen key: the key columns of its latest primary-key change (landing time, then
-- stream order) among those landed no later than the event, whatever the build's split, so an
-- incremental build and a full rebuild key the same events. The re-keyed change reads as a
-- change in change_log and is left out of quarantine.
{%- set window = read_window() %}
{%- if staged_events_none_since(['invalid'], window) %}
-- nothing invalid in the read window: the statement is skipped
{{ cdc_nothing_in_window_marker() }}
{%- endif %}
-- Narrow first: a few columns of the window's invalid events find the ones to key; their whole
-- rows are read only then (with none, Spark's adaptive execution drops that read).
with missing_key_ids as (
    select staged.event_id
    from (
        {{ staged_events_since(['invalid'], window) }}
    ) as staged
    -- row changes only: an update half pairs on its own key (int_update_halves_paired)
    where
        staged.quarantine_reason = 'missing_key'
        and staged.pairing_key is null
        and staged.operation in ('insert', 'update', 'delete', 'read')
),

missing_key_events as (
    select /*+ broadcast(missing_key_ids) */ staged.*
    from (
        {{ staged_events_since(['invalid'], window) }}
    ) as staged
    left semi join missing_key_ids
        on staged.event_id = missing_key_ids.event_id
),

missing_key_tables as (
    select distinct
        source_format,
        table_id
    from missing_key_events
),

-- The primary-key changes of those tables, every one staged so far (the tables are few; with
-- none, Spark's adaptive execution drops this read).
seen_keys as (
    select /*+ broadcast(missing_key_tables) */
        staged.source_format,
        staged.table_id,
        staged.primary_key_columns,
        staged.landed_at,
        staged.sort_key
    from (
        {{ staged_events_since(['change'], {}) }}
    ) as staged
    left semi join missing_key_tables
        on
            staged.source_format = missing_key_tables.source_format
            and staged.table_id = missing_key_tables.table_id
    where staged.row_key_kind = 'primary_key'
),

event_seen_keys as (
    select
        missing_key_events.event_id,
        max_by(seen_keys.primary_key_columns, struct(seen_keys.landed_at, seen_keys.sort_key)) as seen_key_columns
    from missing_key_events
    inner join seen_keys
        on
            missing_key_events.source_format = seen_keys.source_format
            and missing_key_events.table_id = seen_keys.table_id
            and missing_key_events.landed_at >= seen_keys.landed_at
    group by missing_key_events.event_id
),

-- The image the key is read from: the after image, or the before image of a delete.
with_seen_keys as (
    select
        missing_key_events.*,
        event_seen_keys.seen_key_columns,
        case
            when missing_key_events.operation = 'delete' then missing_key_events.before
            else missing_key_events.after
        end as key_image
    from missing_key_events
    inner join event_seen_keys
        on missing_key_events.event_id = event_seen_keys.event_id
),

keyed as (
    select
        with_seen_keys.*,
        {{ key_text('with_seen_keys.seen_key_columns', 'with_seen_keys.key_image') }} as seen_row_key,
        case
            when with_seen_keys.operation = 'update'
                then {{ key_text('with_seen_keys.seen_key_columns', 'with_seen_keys.before') }}
        end as seen_before_row_key
    from with_seen_keys
),

-- The events the seen key keys, with it as their row key (their change id is computed from it).
rekeyed_events as (
    select
        keyed.* except (row_key, key_image),
        keyed.seen_row_key as row_key
    from keyed
    where keyed.seen_row_key is not null
),

-- One row per event already (staged events are unique): only those held are left out.
new_events as (
    {{ new_rows_only('rekeyed_events', 'event_id', 'landed_at', deduplicate=false) }}
)

select
    {{- select_event_columns('new_events', derive_change_id=true, derived={
        'event_class': "'change'",
        'quarantine_reason': 'null',
        'primary_key_columns': 'new_events.seen_key_columns',
        'row_key_kind': "'primary_key'",
        'previous_row_key': "case when new_events.seen_before_row_key <> new_events.row_key then new_events.seen_before_row_key end",
        'raw_value': 'null',
    }) }}
from new_events
