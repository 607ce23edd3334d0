{{ config(materialized='table') }}

-- One row per source stream (format + stream name): how far it has got, as of the last build.
-- The mart stream_progress adds the freshness measured when it is queried.
with events as (
    select * from {{ ref('int_events_unioned') }}
),

-- Each message's outcome, exclusive (the accounting equation): row changes if any of its
-- events is a row change or update half (bad rows of the same message are in quarantine too),
-- else quarantined if any event is invalid, else control only.
message_outcomes as (
    select
        source_format,
        stream_name,
        message_id,
        case
            when count_if(event_class in ('change', 'update_half')) > 0 then 'row_changes'
            when count_if(event_class = 'invalid') > 0 then 'quarantined'
            else 'control'
        end as outcome
    from events
    group by source_format, stream_name, message_id
),

outcome_counts as (
    select
        source_format,
        stream_name,
        count_if(outcome = 'row_changes') as messages_with_row_changes,
        count_if(outcome = 'control') as control_messages,
        count_if(outcome = 'quarantined') as quarantined_messages
    from message_outcomes
    group by source_format, stream_name
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
    outcome_counts.messages_with_row_changes,
    outcome_counts.control_messages,
    outcome_counts.quarantined_messages,
    greatest(last_heartbeat_at, last_change_committed_at) as source_alive_at,
    cast(unix_micros(last_change_landed_at) - unix_micros(last_change_committed_at) as double) / 1e6 as last_change_lag_seconds
from per_stream
inner join outcome_counts
    on per_stream.source_format = outcome_counts.source_format
    and per_stream.stream_name <=> outcome_counts.stream_name
