{{
    config(
        materialized='incremental',
        incremental_strategy='append',
    )
}}

-- The copies of a change delivered more than once (at-least-once delivery, a file landed again
-- under another name, a requeued message): one row per copy that change_log leaves out.
-- change_log is a view over the staged changes and paired updates less these copies, so each
-- change is written once (by its staging model) instead of copied again into a table.
-- The copy kept of a change_id is the first staged: one an earlier run read, if any; else this
-- run's first by sort_key (then event id). Usually empty: this model mostly reads ids.
{%- set window = read_window() %}
with new_changes as (
    select
        staged.event_id,
        staged.change_id,
        staged.source_format,
        staged.sort_key,
        staged.landed_at
    from (
        {{ staged_events_since(['change'], window) }}
    ) as staged
    -- noqa: disable=LT02
    -- (LT02 off: sqlfluff cannot place a Jinja loop's lines; see .sqlfluff)
    {%- for derived_model in derived_change_models() %}
    union all
    select
        derived.event_id,
        derived.change_id,
        derived.source_format,
        derived.sort_key,
        derived.landed_at
    from {{ ref(derived_model) }} as derived
    where {{ landed_since_mark('derived', window) }}
    {%- endfor %}
    -- noqa: enable=LT02
),

-- The changes earlier runs read (only their ids are compared).
earlier_changes as (
    select staged.change_id
    from (
        {{ staged_events_since(['change'], window, before_window=true) }}
    ) as staged
    -- noqa: disable=LT02
    {%- for derived_model in derived_change_models() %}
    union all
    select derived.change_id
    from {{ ref(derived_model) }} as derived
    where {{ landed_before_window('derived', window) }}
    {%- endfor %}
    -- noqa: enable=LT02
),

new_id_hashes as (
    select distinct xxhash64(new_changes.change_id) as id_hash
    from new_changes
),

-- Change ids read more than once by this run, or read by an earlier run too: only they can
-- have a repeated copy. Searched on a 64-bit hash of the id (a collision only adds a
-- candidate), so the search moves a few bytes per change; what it finds is small, broadcast.
-- Inner joins on these distinct hashes, not semi joins: Spark pushes a semi join below a
-- union (new_changes, earlier_changes), copying the other side into every branch.
candidate_hashes as (
    select xxhash64(new_changes.change_id) as id_hash
    from new_changes
    group by xxhash64(new_changes.change_id)
    having count(*) > 1
    union
    -- broadcast: the earlier changes are read once, never moved
    select /*+ broadcast(new_id_hashes) */ xxhash64(earlier_changes.change_id) as id_hash
    from earlier_changes
    inner join new_id_hashes
        on xxhash64(earlier_changes.change_id) = new_id_hashes.id_hash
),

candidates as (
    select /*+ broadcast(candidate_hashes) */ new_changes.*
    from new_changes
    inner join candidate_hashes
        on xxhash64(new_changes.change_id) = candidate_hashes.id_hash
),

earlier_ids as (
    select /*+ broadcast(candidate_hashes) */ distinct earlier_changes.change_id
    from earlier_changes
    inner join candidate_hashes
        on xxhash64(earlier_changes.change_id) = candidate_hashes.id_hash
),

ranked_copies as (
    select /*+ broadcast(earlier_ids) */
        candidates.event_id,
        candidates.change_id,
        candidates.source_format,
        candidates.landed_at,
        earlier_ids.change_id is not null as read_earlier,
        min(struct(candidates.sort_key, candidates.event_id)) over (
            partition by candidates.change_id
        ).event_id as first_event_id
    from candidates
    left join earlier_ids
        on candidates.change_id = earlier_ids.change_id
)

select
    ranked_copies.event_id,
    ranked_copies.change_id,
    ranked_copies.source_format,
    case when ranked_copies.read_earlier then 'earlier_run' else 'same_run' end as kept_copy,
    ranked_copies.landed_at
-- (sqlfluff places this join's lines one way when it renders and another when it does not)
from ranked_copies  -- noqa: LT02
{%- if is_incremental() %}
-- a window that is not strict reads its first landing time again: its copies are held already
left anti join {{ this }} as held  -- noqa: LT02
    on ranked_copies.event_id = held.event_id  -- noqa: LT02
{%- endif %}
where
    ranked_copies.read_earlier
    or ranked_copies.event_id <> ranked_copies.first_event_id
