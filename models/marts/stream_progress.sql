{{ config(materialized='table') }}

-- One row per source stream (format + stream name): how far it has got and how fresh it is.
-- Heartbeats count as proof of life, so a quiet but healthy stream is not reported stale.
with events as (
    select * from {{ ref('int_events_unioned') }}
),

per_stream as (
    select
        source_format,
        stream_name,
        count(distinct message_id) as messages_landed,
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
        max_by(source_position, sort_key) filter (where event_class in ('change', 'update_half')) as last_source_position
    from events
    group by source_format, stream_name
)

select
    per_stream.*,
    greatest(last_heartbeat_at, last_change_committed_at) as source_alive_at,
    cast(unix_micros(last_change_landed_at) - unix_micros(last_change_committed_at) as double) / 1e6 as last_change_lag_seconds,
    cast(unix_micros(current_timestamp()) - unix_micros(greatest(last_heartbeat_at, last_change_committed_at)) as double) / 1e6 as seconds_since_source_alive
from per_stream
