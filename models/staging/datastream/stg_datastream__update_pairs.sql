{{ config(enabled=('datastream' in var('cdc_formats'))) }}

-- Datastream sends an update as two events at one position: UPDATE-DELETE (the old row) and
-- UPDATE-INSERT (the new row). Each is staged and applied on its own as it lands (a delete,
-- an upsert), so a lone half is never held back. Where both halves are there with the same
-- key, they are one update (docs/canonical-contract.md): this model lists such pairs, and change_log shows
-- the UPDATE-INSERT with the old row as its `before` and leaves the UPDATE-DELETE out
-- (row_history drops its version). With a changed key the halves do not pair: the old key's
-- delete and the new key's upsert stay two changes.
-- The halves may land in different batches, in either order: a run pairs every half it reads
-- with a partner staged at any time. Incremental append; one row per pair, found once.
{%- set window = read_window() %}
with halves as (
    select
        staged.change_id,
        staged.vendor_operation,
        staged.table_id,
        staged.row_key,
        staged.source_position,
        staged.before,
        staged.sort_key,
        staged.landed_at
    from {{ ref('stg_datastream__events') }} as staged
    where
        staged.event_class = 'change'
        and staged.vendor_operation in ('UPDATE-DELETE', 'UPDATE-INSERT')
        -- a backfill read is not a half, whatever its change_type says
        and staged.operation <> 'read'
),

-- The (table, key, position) of every half this run reads.
touched as (
    select distinct
        halves.table_id,
        halves.row_key,
        halves.source_position
    from halves
    -- every half when the window has no mark for Datastream (a first build)
    where {{ read_window_condition('halves.landed_at', window['datastream']) if 'datastream' in window else 'true' }}
),

-- Both halves of each touched position, whenever they landed. The copies of a redelivered
-- half share its change_id; the first by sort_key stands for them.
pairs as (
    select /*+ broadcast(touched) */
        halves.table_id,
        halves.row_key,
        halves.source_position,
        min_by(struct(halves.change_id, halves.before), halves.sort_key)
        filter (where halves.vendor_operation = 'UPDATE-DELETE') as old_row_half,
        min_by(halves.change_id, halves.sort_key)
        filter (where halves.vendor_operation = 'UPDATE-INSERT') as update_change_id,
        max(halves.landed_at) as landed_at
    from halves
    inner join touched
        on
            halves.table_id = touched.table_id
            and halves.row_key = touched.row_key
            and halves.source_position = touched.source_position
    group by halves.table_id, halves.row_key, halves.source_position
)

select
    pairs.old_row_half.change_id as old_row_change_id,
    pairs.update_change_id,
    pairs.old_row_half.before,
    pairs.table_id,
    pairs.row_key,
    pairs.source_position,
    'datastream' as source_format,
    pairs.landed_at
-- (LT02 off: sqlfluff places these joins' lines one way when the branch renders and another
-- when it does not, as in int_redelivered_changes)
from pairs  -- noqa: LT02
{%- if is_incremental() %}
-- a pair found by an earlier run (a half read again) is held already; each half pairs once
left anti join {{ this }} as held_old_row  -- noqa: LT02
    on pairs.old_row_half.change_id = held_old_row.old_row_change_id  -- noqa: LT02
left anti join {{ this }} as held_update  -- noqa: LT02
    on pairs.update_change_id = held_update.update_change_id  -- noqa: LT02
{%- endif %}
where
    pairs.old_row_half is not null
    and pairs.update_change_id is not null
