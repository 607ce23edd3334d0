{{
    config(
        materialized='incremental',
        incremental_strategy=current_state_write_strategy(),
        partition_by=['key_bucket'],
    )
}}

-- Latest state of every source row ever seen, tombstones included (CANONICAL.md,
-- "current_state semantics"). Incremental: only the key buckets that new changes touch are
-- read back and rewritten (all buckets when a table is truncated or dropped).
with new_changes as (
    select * from {{ ref('change_log') }}
    where landed_at >= {{ high_water_mark('refreshed_through') }}
),

new_clearings as (
    select
        table_id,
        sort_key,
        landed_at
    from {{ ref('schema_changes') }}
    where clears_table and table_id is not null
        and landed_at >= {{ high_water_mark('refreshed_through') }}
),

refresh_mark as (
    select max(landed_at) as refreshed_through
    from (
        select landed_at from new_changes
        union all
        select landed_at from new_clearings
    ) as inputs
),

-- A change that moved a row to a new key (primary-key update) deletes the old key.
new_events as (
    select
        table_id,
        row_key,
        key_bucket,
        source_format,
        source_system,
        source_database,
        source_schema,
        source_table,
        primary_key_columns,
        row_key_kind,
        column_types,
        operation,
        after_is_partial,
        case when operation = 'delete' then before else after end as image,
        operation = 'delete' as is_deleted,
        change_id,
        sort_key,
        committed_at,
        landed_at
    from new_changes
    union all
    select
        table_id,
        previous_row_key as row_key,
        {{ key_bucket('table_id', 'previous_row_key') }} as key_bucket,
        source_format,
        source_system,
        source_database,
        source_schema,
        source_table,
        primary_key_columns,
        row_key_kind,
        column_types,
        'delete' as operation,
        false as after_is_partial,
        before as image,
        true as is_deleted,
        change_id,
        sort_key,
        committed_at,
        landed_at
    from new_changes
    where previous_row_key is not null
),

{% if is_incremental() %}
prior_state as (
    select
        table_id,
        row_key,
        key_bucket,
        source_format,
        source_system,
        source_database,
        source_schema,
        source_table,
        primary_key_columns,
        row_key_kind,
        column_types,
        last_operation as operation,
        false as after_is_partial,
        row_image as image,
        is_deleted and deleted_by = 'delete' as is_deleted,
        last_change_id as change_id,
        sort_key,
        committed_at,
        landed_at
    from {{ this }}
    where key_bucket in (select key_bucket from new_events)
        or table_id in (select table_id from new_clearings)
),
{% endif %}

candidates as (
    select * from new_events
    {% if is_incremental() %}
    union all
    select * from prior_state
    {% endif %}
),

-- Partial after images (e.g. SharePlex upd) merge over the last full image before them.
with_base as (
    select
        candidates.*,
        coalesce(
            max(case when not after_is_partial then sort_key end)
                over (partition by table_id, row_key),
            ''
        ) as base_sort_key
    from candidates
),

latest as (
    select
        table_id,
        row_key,
        max_by(struct(with_base.*), sort_key) as winner,
        aggregate(
            array_sort(
                collect_list(case when sort_key >= base_sort_key then struct(sort_key, image) end),
                (left_step, right_step) -> case
                    when left_step.sort_key < right_step.sort_key then -1
                    when left_step.sort_key > right_step.sort_key then 1
                    else 0
                end
            ),
            cast(map() as map<string, string>),
            (merged, step) -> map_concat(
                map_filter(merged, (k, v) -> not map_contains_key(coalesce(step.image, map()), k)),
                coalesce(step.image, cast(map() as map<string, string>))
            )
        ) as merged_image
    from with_base
    group by table_id, row_key
),

table_clearings as (
    select
        table_id,
        max(sort_key) as cleared_sort_key
    from {{ ref('schema_changes') }}
    where clears_table and table_id is not null
    group by table_id
),

final as (
    select
        latest.table_id,
        latest.row_key,
        winner.source_format,
        winner.source_system,
        winner.source_database,
        winner.source_schema,
        winner.source_table,
        winner.primary_key_columns,
        winner.row_key_kind,
        case when winner.is_deleted then winner.image else merged_image end as row_image,
        winner.column_types,
        winner.is_deleted or coalesce(winner.sort_key < table_clearings.cleared_sort_key, false) as is_deleted,
        case
            when winner.is_deleted then 'delete'
            when winner.sort_key < table_clearings.cleared_sort_key then 'truncate'
        end as deleted_by,
        winner.operation as last_operation,
        winner.change_id as last_change_id,
        winner.sort_key,
        winner.committed_at,
        winner.landed_at,
        refresh_mark.refreshed_through,
        winner.key_bucket
    from latest
    cross join refresh_mark
    left join table_clearings
        on latest.table_id = table_clearings.table_id
)

select * from final
