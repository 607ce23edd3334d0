-- incremental by layer, with hooks that record its marks: dbt_project.yml (intermediate)
{{ config(incremental_strategy=current_state_write_strategy()) }}

-- Latest state of every source row ever seen, tombstones included (docs/current-state.md),
-- stored in two layers that the view current_state reads as one (macro state_write_layer).
-- Incremental: the keys that new changes touch (every key of a table truncated or dropped
-- now) are decided again and written, with the rest of the delta layer, to the delta layer;
-- the base layer is rewritten only by a compaction. The high-water mark is kept per source
-- format (refreshed_through_by_format).
{%- set window = read_window('state') %}
{#- 'delta': rewrite the delta layer only; 'base': everything (full build, compaction) -#}
{%- set write_layer = state_write_layer() %}
{%- set new_changes_relation = state_new_changes(window) %}
{#- keys a late change rebuilds from the whole change log (none almost always: no rebuild path) -#}
{%- set rebuild_keys_relation = state_rebuild_keys(new_changes_relation) %}
{%- set rebuild_merged_keys = rebuild_keys_relation is not none %}
-- The change log in the read window (written once in an incremental run: macro
-- state_new_changes) as state events: a change that moved a row to a new key (primary-key
-- update) deletes the old key too (macro state_events).
with new_events as (
    {{ state_events(new_changes_relation) }}
),

-- Truncates and dropped tables landed since the last run.
new_clearings as (
    {{ state_clearings_since(ref('schema_changes'), window) }}
),

-- What this run has read through, per format (a format it read nothing of keeps its mark).
refresh_mark as (
    {{ state_refresh_mark(window, ['new_events', 'new_clearings']) }}
),

{% if is_incremental() %}
-- The prior rows this run rewrites (the delta layer and every key a new change touches or a
-- table cleared now holds; every row when compacting), marked `is_touched` where the key is
-- decided again; the rest is carried over as it is (macro touched_layer_rows).
    layer_rows as (
        {{ touched_layer_rows('new_events', 'new_clearings', write_layer) }}
    ),

    prior_state as (
        select
            table_id,
            row_key,
            key_bucket,
            {{ state_table_columns() }},
            column_types,
            last_operation as operation,
            false as after_is_partial,
            image_is_merged,
            row_image as image,
            is_deleted and deleted_by = 'delete' as is_deleted,
            last_change_id as change_id,
            sort_key,
            committed_at,
            landed_at
        from layer_rows
        where is_touched
    ),

    untouched_rows as (
        {{ untouched_layer_rows('layer_rows', write_layer, 'refresh_mark') }}
    ),

    {%- if rebuild_merged_keys %}

        -- A prior row merged from partial images stands for changes below its sort_key: a change
        -- that arrives late (below it, landed after it) may belong under the partials merged into it.
        -- Such keys are rebuilt from all their changes in the change log, as a full rebuild does.
        rebuild_keys as (
            select
                keys_to_rebuild.table_id,
                keys_to_rebuild.row_key
            from {{ rebuild_keys_relation }} as keys_to_rebuild
        ),

        -- rebuild_keys is broadcast: it is empty in the normal case and at most the new keys, while
        -- Spark sizes it from the prior state and would shuffle the whole change log twice.
        -- Inner and outer joins on it (it is distinct), not semi or anti joins: Spark pushes those
        -- below a union, and change_log is a union over the staging models, so each branch got its
        -- own copy of rebuild_keys' plan (25,180 plan nodes, 47 s in Spark on a 1% increment).
        rebuild_changes as (
            select /*+ broadcast(rebuild_keys) */ changes.*
            from {{ ref('change_log') }} as changes
            inner join rebuild_keys
                on
                    changes.table_id = rebuild_keys.table_id
                    and changes.row_key = rebuild_keys.row_key
            union all
            select /*+ broadcast(rebuild_keys, own_key) */ moved.*
            from {{ ref('change_log') }} as moved
            inner join rebuild_keys
                on
                    moved.table_id = rebuild_keys.table_id
                    and moved.previous_row_key = rebuild_keys.row_key
            left join rebuild_keys as own_key
                on
                    moved.table_id = own_key.table_id
                    and moved.row_key = own_key.row_key
            where own_key.row_key is null
        ),

        rebuilt_events as (
            select /*+ broadcast(rebuild_keys) */ events.*
            from ({{ state_events('rebuild_changes') }}) as events
            inner join rebuild_keys
                on
                    events.table_id = rebuild_keys.table_id
                    and events.row_key = rebuild_keys.row_key
        ),
    {%- endif %}
{% endif %}

candidates as (
    {% if rebuild_merged_keys %}
    -- (an outer join on rebuild_keys, not an anti join: see rebuild_changes)
        select /*+ broadcast(rebuild_keys) */ kept.*
        from (
            select * from new_events
            union all
            select * from prior_state
        ) as kept
        left join rebuild_keys
            on
                kept.table_id = rebuild_keys.table_id
                and kept.row_key = rebuild_keys.row_key
        where rebuild_keys.row_key is null
        union all
        select * from rebuilt_events
    {% elif is_incremental() %}
    select * from new_events
    union all
    select * from prior_state
    {% else %}
        select * from new_events
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
        ) as base_sort_key,
        {{ key_has_partial_image() }} as key_has_partial
    from candidates
),

latest as (
    select
        table_id,
        row_key,
        max_by(struct(with_base.*), sort_key) as winner,
        -- merged only for a key with a partial image (a full latest image is its own result)
        {{ merge_partial_images(
            "array_sort(
                collect_list(case when key_has_partial and sort_key >= base_sort_key then struct(sort_key, image) end),
                (left_step, right_step) -> case
                    when left_step.sort_key < right_step.sort_key then -1
                    when left_step.sort_key > right_step.sort_key then 1
                    else 0
                end
            )",
            'image'
        ) }} as merged_image
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
        case
            when winner.is_deleted then winner.image
            when not winner.after_is_partial then coalesce(winner.image, cast(map() as map<string, string>))
            else merged_image
        end as row_image,
        not winner.is_deleted and (winner.after_is_partial or winner.image_is_merged) as image_is_merged,
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
        refresh_mark.refreshed_through_by_format,
        winner.key_bucket
    from latest
    cross join refresh_mark
    left join table_clearings
        on latest.table_id = table_clearings.table_id
    {%- if is_incremental() %}
        union all
        -- the rows carried over, with this run's marks (macro untouched_layer_rows)
        select * from untouched_rows
    {%- endif %}
)

-- Into the layer this run writes, with the delta layer's placeholder row.
select * from ({{ state_layer_output('final', write_layer) }}) as layered
