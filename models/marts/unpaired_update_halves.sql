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

-- How many before and after halves each (pairing key, ordinal) group holds, beside each half:
-- a window, not a join of the halves with their counts, which would read the staging models
-- (int_events_unioned is a view over them) twice.
counted_halves as (
    select
        halves.*,
        count_if(halves.operation = 'update_before') over (
            partition by halves.source_format, halves.table_id, halves.pairing_key, halves.pair_ordinal
        ) as before_halves,
        count_if(halves.operation = 'update_after') over (
            partition by halves.source_format, halves.table_id, halves.pairing_key, halves.pair_ordinal
        ) as after_halves
    from halves
    -- a half without its whole group key belongs to no group (never paired, never listed)
    where
        halves.source_format is not null
        and halves.table_id is not null
        and halves.pairing_key is not null
)

select
    counted_halves.event_id,
    counted_halves.source_format,
    concat('unpaired_', counted_halves.operation) as reason_code,
    counted_halves.operation,
    counted_halves.table_id,
    counted_halves.row_key,
    counted_halves.pairing_key,
    coalesce(counted_halves.before, counted_halves.after) as image,
    counted_halves.committed_at,
    counted_halves.sort_key,
    counted_halves.message_id,
    counted_halves.raw_relation,
    counted_halves.stream_name,
    counted_halves.origin,
    counted_halves.origin_partition,
    counted_halves.origin_offset,
    counted_halves.landed_at,
    counted_halves.landing_batch_id
from counted_halves
where counted_halves.before_halves = 0 or counted_halves.after_halves = 0
