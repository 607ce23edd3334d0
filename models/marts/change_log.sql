{{
    config(
        materialized='incremental',
        incremental_strategy='append',
    )
}}

-- The canonical change log: one row per row-level change, from every format.
-- Append-only; a change delivered twice (same change_id, computed in staging) is kept once:
-- the first copy by sort_key.
-- Reads only what landed since it last ran, per format (read_window).
{%- set window = read_window() %}
with single_message_changes as (
    {{ staged_events_since(['change'], window) }}
),

paired_updates as (
    select pairs.*
    from {{ ref('int_update_halves_paired') }} as pairs
    where {{ landed_since_mark('pairs', window) }}
),

changes as (
    select {{ select_event_columns('single_message_changes') }} from single_message_changes
    union all
    select {{ select_event_columns('paired_updates') }} from paired_updates
),

{% if is_incremental() %}
-- The new changes' ids as 64-bit hashes: small, broadcast against the held change log.
new_id_hashes as (
    select distinct xxhash64(changes.change_id) as id_hash
    from changes
),
{%- endif %}

-- Change ids read more than once, or already held: only they need de-duplicating. Searched
-- on a 64-bit hash of the id (a collision only adds a candidate), so finding them moves a few
-- bytes per change instead of whole rows; what is found is small and broadcast.
repeated_ids as (
    select xxhash64(changes.change_id) as id_hash
    from changes
    group by xxhash64(changes.change_id)
    having count(*) > 1
    {%- if is_incremental() %}
    union
    -- broadcast: the held change log is read once, never moved
    select /*+ broadcast(new_id_hashes) */ xxhash64(existing.change_id) as id_hash
    from {{ this }} as existing
    left semi join new_id_hashes
        on xxhash64(existing.change_id) = new_id_hashes.id_hash
    {%- endif %}
),

-- The copy kept of each candidate id: the first by sort_key (then event id).
first_copies as (
    select /*+ broadcast(repeated_ids) */
        changes.change_id,
        min(struct(changes.sort_key, changes.event_id)).event_id as event_id
    from changes
    left semi join repeated_ids
        on xxhash64(changes.change_id) = repeated_ids.id_hash
    group by changes.change_id
),

{%- if is_incremental() %}

held_ids as (
    select /*+ broadcast(repeated_ids) */ existing.change_id
    from {{ this }} as existing
    left semi join repeated_ids
        on xxhash64(existing.change_id) = repeated_ids.id_hash
),
{%- endif %}

new_changes as (
    select /*+ broadcast(first_copies){% if is_incremental() %}, broadcast(held_ids){% endif %} */
        {{ key_bucket('changes.table_id', 'changes.row_key') }} as key_bucket,
        changes.*
    from changes
    left join first_copies
        on changes.change_id = first_copies.change_id
    {%- if is_incremental() %}
    left anti join held_ids
        on changes.change_id = held_ids.change_id
    {%- endif %}
    where first_copies.change_id is null
        or changes.event_id = first_copies.event_id
)

select
    {{ change_log_columns() | join(',\n    ') }}
from new_changes
