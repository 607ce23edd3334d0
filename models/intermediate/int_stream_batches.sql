{{
    config(
        materialized='incremental',
        incremental_strategy='insert_overwrite',
        partition_by=['source_format'],
    )
}}

-- One row per landing batch of each source stream (format + stream name + landed_at): the
-- counts and latest times of its messages. The view stream_progress sums and takes the
-- maxima over a stream's batches, and adds the freshness measured when it is queried.
-- Incremental: a build groups only the batches it reads; the rows of earlier batches are
-- carried over as they are (a batch read again, after a killed run or from a raw table
-- without commit marks, replaces its row).
{%- set window = read_window() %}
{%- set indexed_formats = [] %}
{%- for format_id, format in cdc_format_registry().items() if format.get('indexed_rows') %}
    {%- do indexed_formats.append(cdc_sql_string(format_id)) %}
{%- endfor %}
{#- a message of a format whose messages hold several events: its events are grouped by message #}
{%- set is_grouped = 'source_format in (' ~ (indexed_formats | join(', ') if indexed_formats else 'null') ~ ')' %}
with rekeyed as (
    select rekeyed_changes.event_id
    from {{ ref('int_rekeyed_changes') }} as rekeyed_changes
    where {{ landed_since_mark('rekeyed_changes', window) }}
),

-- An invalid event its table's previously seen key keyed (int_rekeyed_changes) is a change.
events as (
    select /*+ broadcast(rekeyed) */
        staged.* except (event_class),
        case when rekeyed.event_id is not null then 'change' else staged.event_class end as event_class
    from {{ ref('int_events_unioned') }} as staged
    left join rekeyed
        on staged.event_id = rekeyed.event_id
    where {{ landed_since_mark('staged', window) }}
),

-- Each message's outcome, exclusive (the accounting equation): row changes if any of its
-- events is a row change or update half (bad rows of the same message are in quarantine
-- too), else quarantined if any event is invalid, else control only.
-- Grouped by message only where a message holds several events (formats whose registry
-- entry has `indexed_rows`, e.g. Canal's data[]). Every other message is its one event
-- (staged_event_columns: row_index 0, so one event id per message), and its events are
-- grouped by batch at once: partial aggregation leaves a few rows per batch to shuffle,
-- not one per message (a message-wide shuffle took most of this model's time). Each row
-- says how many messages it stands for and of which outcome, so the batches sum them.
message_groups as (
    select
        source_format,
        stream_name,
        landed_at,
        -- messages: one for a grouped message, else one per event
        case when {{ is_grouped }} then 1 else count(*) end as messages_landed,
        count_if(event_class in ('change', 'update_half')) as row_events,
        count_if(event_class in ('schema_change', 'truncate', 'transaction', 'heartbeat')) as control_events,
        count_if(event_class = 'invalid') as quarantined_events,
        count_if(event_class = 'heartbeat' and operation = 'tombstone') as tombstones_skipped,
        case
            when {{ is_grouped }} then cast(count_if(event_class in ('change', 'update_half')) > 0 as int)
            else count_if(event_class in ('change', 'update_half'))
        end as messages_with_row_changes,
        case
            when {{ is_grouped }}
                then cast(
                    count_if(event_class in ('change', 'update_half')) = 0 and count_if(event_class = 'invalid') = 0
                    as int
                )
            else count_if(not coalesce(event_class in ('change', 'update_half', 'invalid'), false))
        end as control_messages,
        case
            when {{ is_grouped }}
                then cast(
                    count_if(event_class in ('change', 'update_half')) = 0 and count_if(event_class = 'invalid') > 0
                    as int
                )
            else count_if(event_class = 'invalid')
        end as quarantined_messages,
        max(case when event_class = 'heartbeat' then committed_at end) as last_heartbeat_at,
        max(case when event_class in ('change', 'update_half') then committed_at end) as last_change_committed_at,
        max(case when event_class in ('change', 'update_half') then captured_at end) as last_change_captured_at,
        max(case when event_class in ('change', 'update_half') then landed_at end) as last_change_landed_at,
        -- the latest change: max_by skips the rows whose sort key is null (no change)
        max_by(source_position, case when event_class in ('change', 'update_half') then sort_key end)
            as last_source_position,
        max(case when event_class in ('change', 'update_half') then sort_key end) as last_change_sort_key
    from events
    group by
        source_format,
        stream_name,
        landed_at,
        case when {{ is_grouped }} then message_id end
),

batch_counts as (
    select
        source_format,
        stream_name,
        landed_at,
        sum(messages_landed) as messages_landed,
        sum(row_events) as row_events,
        sum(control_events) as control_events,
        sum(quarantined_events) as quarantined_events,
        sum(tombstones_skipped) as tombstones_skipped,
        sum(messages_with_row_changes) as messages_with_row_changes,
        sum(control_messages) as control_messages,
        sum(quarantined_messages) as quarantined_messages,
        max(last_heartbeat_at) as last_heartbeat_at,
        max(last_change_committed_at) as last_change_committed_at,
        max(last_change_captured_at) as last_change_captured_at,
        max(last_change_landed_at) as last_change_landed_at,
        max_by(last_source_position, last_change_sort_key) as last_source_position,
        max(last_change_sort_key) as last_change_sort_key
    from message_groups
    group by source_format, stream_name, landed_at
),

new_batches as (
    select
        stream_name,
        landed_at,
        messages_landed,
        row_events,
        control_events,
        quarantined_events,
        tombstones_skipped,
        messages_with_row_changes,
        control_messages,
        quarantined_messages,
        last_heartbeat_at,
        last_change_committed_at,
        last_change_captured_at,
        last_change_landed_at,
        last_source_position,
        last_change_sort_key,
        source_format
    from batch_counts
)

select * from new_batches
{%- if is_incremental() %}
    union all
    -- Earlier batches, outside this build's read window, as they were.
    select earlier.*
    from {{ this }} as earlier
    where not {{ landed_since_mark('earlier', window) }}
{%- endif %}
