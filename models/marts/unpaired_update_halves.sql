{{ config(materialized='view') }}

-- Before halves of two-message updates whose after half has not arrived: held, not applied.
-- They leave this view as soon as their after half lands.
with halves as (
    select * from {{ ref('int_events_unioned') }}
    where event_class = 'update_half'
),

before_halves as (
    select * from halves
    where operation = 'update_before'
),

after_halves as (
    select
        source_format,
        table_id,
        pairing_key
    from halves
    where operation = 'update_after'
)

select
    before_halves.event_id,
    before_halves.source_format,
    'unpaired_update_before' as reason_code,
    before_halves.table_id,
    before_halves.row_key,
    before_halves.pairing_key,
    before_halves.before,
    before_halves.committed_at,
    before_halves.sort_key,
    before_halves.message_id,
    before_halves.raw_relation,
    before_halves.stream_name,
    before_halves.origin,
    before_halves.origin_partition,
    before_halves.origin_offset,
    before_halves.landed_at,
    before_halves.landing_batch_id
from before_halves
left anti join after_halves
    on before_halves.source_format = after_halves.source_format
    and before_halves.table_id = after_halves.table_id
    and before_halves.pairing_key = after_halves.pairing_key
