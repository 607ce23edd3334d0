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

-- One row per message (its events are staged together): what it holds, and its outcome,
-- exclusive (the accounting equation): row changes if any of its events is a row change or
-- update half (bad rows of the same message are in quarantine too), else quarantined if any
-- event is invalid, else control only. The events are grouped once, by message; the batches
-- are summed from these rows, and take their latest change from batch_positions.
messages as (
    select
        source_format,
        stream_name,
        landed_at,
        count_if(event_class in ('change', 'update_half')) as row_events,
        count_if(event_class in ('schema_change', 'truncate', 'transaction', 'heartbeat')) as control_events,
        count_if(event_class = 'invalid') as quarantined_events,
        -- Kafka tombstones (null value after a Debezium delete): skipped, but counted.
        count_if(event_class = 'heartbeat' and operation = 'tombstone') as tombstones_skipped,
        max(case when event_class = 'heartbeat' then committed_at end) as last_heartbeat_at,
        max(case when event_class in ('change', 'update_half') then committed_at end) as last_change_committed_at,
        max(case when event_class in ('change', 'update_half') then captured_at end) as last_change_captured_at,
        max(case when event_class in ('change', 'update_half') then landed_at end) as last_change_landed_at
    from events
    group by source_format, stream_name, landed_at, message_id
),

-- The latest change of each batch, straight from its events: a max over text (sort_key) is
-- a sort aggregate in Spark, cheap over a few batch groups, dear over a million messages.
batch_positions as (
    select
        source_format,
        stream_name,
        landed_at,
        max_by(source_position, sort_key) as last_source_position,
        max(sort_key) as last_change_sort_key
    from events
    where event_class in ('change', 'update_half')
    group by source_format, stream_name, landed_at
),

batch_counts as (
    select
        source_format,
        stream_name,
        landed_at,
        count(*) as messages_landed,
        sum(row_events) as row_events,
        sum(control_events) as control_events,
        sum(quarantined_events) as quarantined_events,
        sum(tombstones_skipped) as tombstones_skipped,
        count_if(row_events > 0) as messages_with_row_changes,
        count_if(row_events = 0 and quarantined_events = 0) as control_messages,
        count_if(row_events = 0 and quarantined_events > 0) as quarantined_messages,
        max(last_heartbeat_at) as last_heartbeat_at,
        max(last_change_committed_at) as last_change_committed_at,
        max(last_change_captured_at) as last_change_captured_at,
        max(last_change_landed_at) as last_change_landed_at
    from messages
    group by source_format, stream_name, landed_at
),

new_batches as (
    select
        batch_counts.stream_name,
        batch_counts.landed_at,
        batch_counts.messages_landed,
        batch_counts.row_events,
        batch_counts.control_events,
        batch_counts.quarantined_events,
        batch_counts.tombstones_skipped,
        batch_counts.messages_with_row_changes,
        batch_counts.control_messages,
        batch_counts.quarantined_messages,
        batch_counts.last_heartbeat_at,
        batch_counts.last_change_committed_at,
        batch_counts.last_change_captured_at,
        batch_counts.last_change_landed_at,
        batch_positions.last_source_position,
        batch_positions.last_change_sort_key,
        batch_counts.source_format
    from batch_counts
    left join batch_positions
        on
            batch_counts.source_format <=> batch_positions.source_format
            and batch_counts.stream_name <=> batch_positions.stream_name
            and batch_counts.landed_at <=> batch_positions.landed_at
)

select * from new_batches
{%- if is_incremental() %}
    union all
    -- Earlier batches, outside this build's read window, as they were.
    select earlier.*
    from {{ this }} as earlier
    where not {{ landed_since_mark('earlier', window) }}
{%- endif %}
