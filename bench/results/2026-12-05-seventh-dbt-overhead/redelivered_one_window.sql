
            

-- The copies of a change delivered more than once (at-least-once delivery, a file landed again
-- under another name, a requeued message): one row per copy that change_log leaves out.
-- change_log is a view over the staged changes and paired updates less these copies, so each
-- change is written once (by its staging model) instead of copied again into a table.
-- The copy kept of a change_id is the first staged: one an earlier run read, if any; else this
-- run's first by sort_key (then event id). Usually empty: this model mostly reads ids.
with new_changes as (
    select
        staged.event_id,
        staged.change_id,
        staged.source_format,
        staged.sort_key,
        staged.landed_at
    from (
        
    select staged.*
    from bench_staging.stg_dataworks__events as staged
    where staged.event_class in ('change')
        and staged.landed_at > timestamp'2026-12-05 18:49:43.185051' and staged.landed_at <= timestamp'2026-12-05 18:49:58.724040'
    union all
    select staged.*
    from bench_staging.stg_datahub_tuple__events as staged
    where staged.event_class in ('change')
        and staged.landed_at > timestamp'2026-12-05 18:49:43.188613' and staged.landed_at <= timestamp'2026-12-05 18:49:58.491617'
    union all
    select staged.*
    from bench_staging.stg_canal__events as staged
    where staged.event_class in ('change')
        and staged.landed_at > timestamp'2026-12-05 18:49:43.239125' and staged.landed_at <= timestamp'2026-12-05 18:49:58.432825'
    union all
    select staged.*
    from bench_staging.stg_debezium__events as staged
    where staged.event_class in ('change')
        and staged.landed_at > timestamp'2026-12-05 18:49:43.190341' and staged.landed_at <= timestamp'2026-12-05 18:49:58.462484'
    union all
    select staged.*
    from bench_staging.stg_shareplex__events as staged
    where staged.event_class in ('change')
        and staged.landed_at > timestamp'2026-12-05 18:49:44.964383' and staged.landed_at <= timestamp'2026-12-05 18:49:59.735128'
    ) as staged
    -- noqa: disable=LT02
    -- (LT02 off: sqlfluff cannot place a Jinja loop's lines; see .sqlfluff)
    union all
    select
        derived.event_id,
        derived.change_id,
        derived.source_format,
        derived.sort_key,
        derived.landed_at
    from bench_staging.int_update_halves_paired as derived
    where (
            (derived.source_format = 'canal' and derived.landed_at > timestamp'2026-12-05 18:49:43.239125' and derived.landed_at <= timestamp'2026-12-05 18:49:58.432825') or
            (derived.source_format = 'datahub_tuple' and derived.landed_at > timestamp'2026-12-05 18:49:43.188613' and derived.landed_at <= timestamp'2026-12-05 18:49:58.491617') or
            (derived.source_format = 'dataworks' and derived.landed_at > timestamp'2026-12-05 18:49:43.185051' and derived.landed_at <= timestamp'2026-12-05 18:49:58.724040') or
            (derived.source_format = 'debezium' and derived.landed_at > timestamp'2026-12-05 18:49:43.190341' and derived.landed_at <= timestamp'2026-12-05 18:49:58.462484') or
            (derived.source_format = 'shareplex' and derived.landed_at > timestamp'2026-12-05 18:49:44.964383' and derived.landed_at <= timestamp'2026-12-05 18:49:59.735128') or
            derived.source_format not in ('canal', 'datahub_tuple', 'dataworks', 'debezium', 'shareplex')
            or derived.source_format is null
        )
    union all
    select
        derived.event_id,
        derived.change_id,
        derived.source_format,
        derived.sort_key,
        derived.landed_at
    from bench_staging.int_rekeyed_changes as derived
    where (
            (derived.source_format = 'canal' and derived.landed_at > timestamp'2026-12-05 18:49:43.239125' and derived.landed_at <= timestamp'2026-12-05 18:49:58.432825') or
            (derived.source_format = 'datahub_tuple' and derived.landed_at > timestamp'2026-12-05 18:49:43.188613' and derived.landed_at <= timestamp'2026-12-05 18:49:58.491617') or
            (derived.source_format = 'dataworks' and derived.landed_at > timestamp'2026-12-05 18:49:43.185051' and derived.landed_at <= timestamp'2026-12-05 18:49:58.724040') or
            (derived.source_format = 'debezium' and derived.landed_at > timestamp'2026-12-05 18:49:43.190341' and derived.landed_at <= timestamp'2026-12-05 18:49:58.462484') or
            (derived.source_format = 'shareplex' and derived.landed_at > timestamp'2026-12-05 18:49:44.964383' and derived.landed_at <= timestamp'2026-12-05 18:49:59.735128') or
            derived.source_format not in ('canal', 'datahub_tuple', 'dataworks', 'debezium', 'shareplex')
            or derived.source_format is null
        )
    -- noqa: enable=LT02
),

-- The changes earlier runs read (only their ids are compared).
earlier_changes as (
    select staged.change_id
    from (
        
    select staged.*
    from bench_staging.stg_dataworks__events as staged
    where staged.event_class in ('change')
        and staged.landed_at <= timestamp'2026-12-05 18:49:43.185051'
    union all
    select staged.*
    from bench_staging.stg_datahub_tuple__events as staged
    where staged.event_class in ('change')
        and staged.landed_at <= timestamp'2026-12-05 18:49:43.188613'
    union all
    select staged.*
    from bench_staging.stg_canal__events as staged
    where staged.event_class in ('change')
        and staged.landed_at <= timestamp'2026-12-05 18:49:43.239125'
    union all
    select staged.*
    from bench_staging.stg_debezium__events as staged
    where staged.event_class in ('change')
        and staged.landed_at <= timestamp'2026-12-05 18:49:43.190341'
    union all
    select staged.*
    from bench_staging.stg_shareplex__events as staged
    where staged.event_class in ('change')
        and staged.landed_at <= timestamp'2026-12-05 18:49:44.964383'
    ) as staged
    -- noqa: disable=LT02
    union all
    select derived.change_id
    from bench_staging.int_update_halves_paired as derived
    where (
        (derived.source_format = 'canal' and derived.landed_at <= timestamp'2026-12-05 18:49:43.239125') or
        (derived.source_format = 'datahub_tuple' and derived.landed_at <= timestamp'2026-12-05 18:49:43.188613') or
        (derived.source_format = 'dataworks' and derived.landed_at <= timestamp'2026-12-05 18:49:43.185051') or
        (derived.source_format = 'debezium' and derived.landed_at <= timestamp'2026-12-05 18:49:43.190341') or
        (derived.source_format = 'shareplex' and derived.landed_at <= timestamp'2026-12-05 18:49:44.964383') or
        false
    )
    union all
    select derived.change_id
    from bench_staging.int_rekeyed_changes as derived
    where (
        (derived.source_format = 'canal' and derived.landed_at <= timestamp'2026-12-05 18:49:43.239125') or
        (derived.source_format = 'datahub_tuple' and derived.landed_at <= timestamp'2026-12-05 18:49:43.188613') or
        (derived.source_format = 'dataworks' and derived.landed_at <= timestamp'2026-12-05 18:49:43.185051') or
        (derived.source_format = 'debezium' and derived.landed_at <= timestamp'2026-12-05 18:49:43.190341') or
        (derived.source_format = 'shareplex' and derived.landed_at <= timestamp'2026-12-05 18:49:44.964383') or
        false
    )
    -- noqa: enable=LT02
),

new_id_hashes as (
    select distinct xxhash64(new_changes.change_id) as id_hash
    from new_changes
),

earlier_hits as (
    select /*+ broadcast(new_id_hashes) */ distinct earlier_changes.change_id
    from earlier_changes
    inner join new_id_hashes
        on xxhash64(earlier_changes.change_id) = new_id_hashes.id_hash
),

ranked_copies as (
    select /*+ broadcast(earlier_hits) */
        new_changes.event_id,
        new_changes.change_id,
        new_changes.source_format,
        new_changes.landed_at,
        earlier_hits.change_id is not null as read_earlier,
        min(struct(new_changes.sort_key, new_changes.event_id)) over (
            partition by new_changes.change_id
        ).event_id as first_event_id
    from new_changes
    left join earlier_hits
        on new_changes.change_id = earlier_hits.change_id
)

select
    ranked_copies.event_id,
    ranked_copies.change_id,
    ranked_copies.source_format,
    case when ranked_copies.read_earlier then 'earlier_run' else 'same_run' end as kept_copy,
    ranked_copies.landed_at
from ranked_copies
left anti join bench_staging.int_redelivered_changes as held  -- noqa: LT02
    on ranked_copies.event_id = held.event_id  -- noqa: LT02
where
    ranked_copies.read_earlier
    or ranked_copies.event_id <> ranked_copies.first_event_id
