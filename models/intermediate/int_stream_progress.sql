{{ config(materialized='table') }}

-- One row per source stream (format + stream name): how far it has got, as of the last build.
-- The mart stream_progress adds the freshness measured when it is queried.
with events as (
    select * from {{ ref('int_events_unioned') }}
),

-- One row per message (its events are staged together): what it holds, and its outcome,
-- exclusive (the accounting equation): row changes if any of its events is a row change or
-- update half (bad rows of the same message are in quarantine too), else quarantined if any
-- event is invalid, else control only. The events are grouped once, by message; the streams
-- are summed from these rows.
messages as (
    select
        source_format,
        stream_name,
        count_if(event_class in ('change', 'update_half')) as row_events,
        count_if(event_class in ('schema_change', 'truncate', 'transaction', 'heartbeat')) as control_events,
        count_if(event_class = 'invalid') as quarantined_events,
        -- Kafka tombstones (null value after a Debezium delete): skipped, but counted.
        count_if(event_class = 'heartbeat' and operation = 'tombstone') as tombstones_skipped,
        max(case when event_class = 'heartbeat' then committed_at end) as last_heartbeat_at,
        max(case when event_class in ('change', 'update_half') then committed_at end) as last_change_committed_at,
        max(case when event_class in ('change', 'update_half') then captured_at end) as last_change_captured_at,
        max(case when event_class in ('change', 'update_half') then landed_at end) as last_change_landed_at,
        max(landed_at) as last_landed_at,
        max_by(source_position, sort_key) filter (where event_class in ('change', 'update_half')) as last_source_position,
        max(sort_key) filter (where event_class in ('change', 'update_half')) as last_change_sort_key
    from events
    group by source_format, stream_name, message_id
),

per_stream as (
    select
        source_format,
        stream_name,
        count(*) as messages_landed,
        sum(row_events) as row_events,
        sum(control_events) as control_events,
        sum(quarantined_events) as quarantined_events,
        sum(tombstones_skipped) as tombstones_skipped,
        max(last_heartbeat_at) as last_heartbeat_at,
        max(last_change_committed_at) as last_change_committed_at,
        max(last_change_captured_at) as last_change_captured_at,
        max(last_change_landed_at) as last_change_landed_at,
        max(last_landed_at) as last_landed_at,
        max_by(last_source_position, last_change_sort_key) as last_source_position,
        count_if(row_events > 0) as messages_with_row_changes,
        count_if(row_events = 0 and quarantined_events = 0) as control_messages,
        count_if(row_events = 0 and quarantined_events > 0) as quarantined_messages
    from messages
    group by source_format, stream_name
)

select
    per_stream.*,
    greatest(last_heartbeat_at, last_change_committed_at) as source_alive_at,
    cast(unix_micros(last_change_landed_at) - unix_micros(last_change_committed_at) as double) / 1e6 as last_change_lag_seconds
from per_stream
