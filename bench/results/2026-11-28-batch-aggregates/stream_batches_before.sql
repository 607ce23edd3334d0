with  __dbt__cte__int_events_unioned as (




select * from bench_staging.stg_dataworks__events
union all

select * from bench_staging.stg_datahub_tuple__events
union all

select * from bench_staging.stg_canal__events
union all

select * from bench_staging.stg_debezium__events
union all

select * from bench_staging.stg_shareplex__events


), events as (
    select staged.*
    from __dbt__cte__int_events_unioned as staged
    where (
            (staged.source_format = 'shareplex' and staged.landed_at <= timestamp'2026-11-28 06:16:22.666971') or
            (staged.source_format = 'debezium' and staged.landed_at <= timestamp'2026-11-28 06:16:19.170200') or
            (staged.source_format = 'canal' and staged.landed_at <= timestamp'2026-11-28 06:16:14.791194') or
            (staged.source_format = 'datahub_tuple' and staged.landed_at <= timestamp'2026-11-28 06:16:11.107942') or
            (staged.source_format = 'dataworks' and staged.landed_at <= timestamp'2026-11-28 06:16:00.241467') or
            staged.source_format not in ('shareplex', 'debezium', 'canal', 'datahub_tuple', 'dataworks')
            or staged.source_format is null
        )
),






messages as (
    select
        source_format,
        stream_name,
        landed_at,
        count_if(event_class in ('change', 'update_half')) as row_events,
        count_if(event_class in ('schema_change', 'truncate', 'transaction', 'heartbeat')) as control_events,
        count_if(event_class = 'invalid') as quarantined_events,
        
        count_if(event_class = 'heartbeat' and operation = 'tombstone') as tombstones_skipped,
        max(case when event_class = 'heartbeat' then committed_at end) as last_heartbeat_at,
        max(case when event_class in ('change', 'update_half') then committed_at end) as last_change_committed_at,
        max(case when event_class in ('change', 'update_half') then captured_at end) as last_change_captured_at,
        max(case when event_class in ('change', 'update_half') then landed_at end) as last_change_landed_at,
        max_by(source_position, sort_key) filter (where event_class in ('change', 'update_half')) as last_source_position,
        max(sort_key) filter (where event_class in ('change', 'update_half')) as last_change_sort_key
    from events
    group by source_format, stream_name, landed_at, message_id
),

new_batches as (
    select
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
        max(last_change_landed_at) as last_change_landed_at,
        max_by(last_source_position, last_change_sort_key) as last_source_position,
        max(last_change_sort_key) as last_change_sort_key,
        source_format
    from messages
    group by source_format, stream_name, landed_at
)

select * from new_batches
  