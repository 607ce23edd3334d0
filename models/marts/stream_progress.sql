{{ config(materialized='view') }}

-- One row per source stream (format + stream name): how far it has got and how fresh it is.
-- Heartbeats count as proof of life, so a quiet but healthy stream is not reported stale.
-- A view over the per-batch table int_stream_batches: counts are summed over the stream's
-- batches when queried, and the freshness is measured then, so it grows between builds.
with per_stream as (
    select
        source_format,
        stream_name,
        sum(messages_landed) as messages_landed,
        sum(row_events) as row_events,
        sum(control_events) as control_events,
        sum(quarantined_events) as quarantined_events,
        sum(tombstones_skipped) as tombstones_skipped,
        max(last_heartbeat_at) as last_heartbeat_at,
        max(last_change_committed_at) as last_change_committed_at,
        max(last_change_captured_at) as last_change_captured_at,
        max(last_change_landed_at) as last_change_landed_at,
        max(landed_at) as last_landed_at,
        max_by(last_source_position, last_change_sort_key) as last_source_position,
        sum(messages_with_row_changes) as messages_with_row_changes,
        sum(control_messages) as control_messages,
        sum(quarantined_messages) as quarantined_messages
    from {{ ref('int_stream_batches') }}
    group by source_format, stream_name
),

alive as (
    select
        per_stream.*,
        greatest(last_heartbeat_at, last_change_committed_at) as source_alive_at,
        cast(unix_micros(last_change_landed_at) - unix_micros(last_change_committed_at) as double) / 1e6
            as last_change_lag_seconds
    from per_stream
)

select
    alive.*,
    cast(unix_micros(current_timestamp()) - unix_micros(alive.source_alive_at) as double) / 1e6
        as seconds_since_source_alive
from alive
