{{ config(materialized='view') }}

-- Halves of two-message updates whose partner has not landed yet: held, not applied, and
-- listed here until the partner arrives (only the pair tells whether the key changed).
-- Halves pair by (pairing key, ordinal), see macro update_half_ordinals.
with all_halves as (
    select * from {{ ref('int_events_unioned') }}
    where event_class = 'update_half'
),

halves as (
    {{ update_half_ordinals('all_halves') }}
),

half_counts as (
    select
        source_format,
        table_id,
        pairing_key,
        pair_ordinal,
        count_if(operation = 'update_before') as before_halves,
        count_if(operation = 'update_after') as after_halves
    from halves
    group by source_format, table_id, pairing_key, pair_ordinal
)

select
    halves.event_id,
    halves.source_format,
    concat('unpaired_', halves.operation) as reason_code,
    halves.operation,
    halves.table_id,
    halves.row_key,
    halves.pairing_key,
    coalesce(halves.before, halves.after) as image,
    halves.committed_at,
    halves.sort_key,
    halves.message_id,
    halves.raw_relation,
    halves.stream_name,
    halves.origin,
    halves.origin_partition,
    halves.origin_offset,
    halves.landed_at,
    halves.landing_batch_id
from halves
inner join half_counts
    on
        halves.source_format = half_counts.source_format
        and halves.table_id = half_counts.table_id
        and halves.pairing_key = half_counts.pairing_key
        and halves.pair_ordinal = half_counts.pair_ordinal
where half_counts.before_halves = 0 or half_counts.after_halves = 0
