-- incremental by layer, with hooks that record its marks: dbt_project.yml (intermediate)
{{ config(incremental_strategy=current_state_write_strategy()) }}

-- SCD type 2 history built from the change log: one row per version of a source row, with
-- valid_from / valid_to (source commit time; a version without one takes effect with the
-- version before it, a first one from the beginning of history), in sort_key order wherever
-- changes landed.
-- A truncate or dropped table closes the versions it removed (ended_by = 'truncate').
-- Stored in two layers like current_state (the view row_history reads them as one): the keys
-- that new changes touch are rebuilt from their prior versions plus the new changes into the
-- delta layer, so late events slot into place (every version keeps its own change image, so
-- partial images merge right however late they come).
{%- set window = read_window('state') %}
{#- 'delta': rewrite the delta layer only; 'base': everything (full build, compaction) -#}
{%- set write_layer = state_write_layer() %}
{#- versions end by a truncate only where schema_changes holds one -#}
{%- set any_clearings = relation_has_row(ref('schema_changes'), 'clears_table and table_id is not null') %}
{#- formats whose updates may come as two changes that pair later (update_pairs_model); read
    without a ref (macro model_relation): they are parents of change_log already -#}
{%- set update_pairs_models = [] %}
{%- for format_id in cdc_enabled_formats() if cdc_format(format_id).get('update_pairs_model') %}
    {%- do update_pairs_models.append(cdc_format(format_id)['update_pairs_model']) %}
{%- endfor %}
-- The change log in the read window (written once in an incremental run: macro
-- state_new_changes) as state events (macro state_events, shared with current_state).
with new_events as (
    {{ state_events(state_new_changes(window)) }}
),

-- Truncates and dropped tables landed since the last run.
new_clearings as (
    {{ state_clearings_since(ref('schema_changes'), window) }}
),

-- What this run has read through, per format (a format it read nothing of keeps its mark).
refresh_mark as (
    {{ state_refresh_mark(window, ['new_events', 'new_clearings']) }}
),

-- Versions contributed by the new changes.
new_versions as (
    select
        table_id,
        row_key,
        key_bucket,
        source_format,
        change_id,
        operation,
        is_deleted as is_deletion,
        after_is_partial,
        image as change_image,
        sort_key,
        committed_at,
        landed_at
    from new_events
),

{% if is_incremental() %}
-- The stored versions this run rewrites: the delta layer and every version of a key a new
-- change touches or a table cleared now holds (all of them when compacting), marked
-- `is_touched` where the key's versions are built again (macro touched_layer_rows).
    layer_rows as (
        {{ touched_layer_rows('new_versions', 'new_clearings', write_layer) }}
    ),

    prior_versions as (
        select
            table_id,
            row_key,
            key_bucket,
            source_format,
            change_id,
            operation,
            is_deleted as is_deletion,
            after_is_partial,
            change_image,
            sort_key,
            -- the commit time as the change log had it: a stored valid_from equal to the one of
            -- the version before was carried over from it (see `timed`), so it was unknown
            case
                when valid_from <=> lag(valid_from) over (partition by table_id, row_key order by sort_key) then null
                else valid_from
            end as committed_at,
            landed_at
        from layer_rows
        where is_touched
    ),
    {%- if update_pairs_models %}

        -- An old-row half of an update whose new-row half came later (the formats' update pairs
        -- models) is no version of its own any more: change_log shows the pair as one update.
        unpaired_prior_versions as (
            select /*+ broadcast(paired_old_rows) */ prior_versions.*
            from prior_versions
            left join (
                {%- for pairs_model in update_pairs_models %}
                    select pairs.old_row_change_id from {{ model_relation(pairs_model) }} as pairs
                    {{- "\n        union all" if not loop.last }}
                {%- endfor %}
            ) as paired_old_rows
                on prior_versions.change_id = paired_old_rows.old_row_change_id
            where paired_old_rows.old_row_change_id is null
        ),
    {%- endif %}

    untouched_rows as (
        {{ untouched_layer_rows('layer_rows', write_layer, 'refresh_mark') }}
    ),
{% endif %}

-- Distributed by key once: every window below partitions by the key (and more), so Spark
-- shuffles the versions once instead of twice (bench/results/2026-12-03-night-one-shuffle/).
versions as (
    select *
    from (
        select * from new_versions
        {% if is_incremental() %}
            union all
            select * from {{ 'unpaired_prior_versions' if update_pairs_models else 'prior_versions' }}
        {% endif %}
    ) as all_versions
    distribute by table_id, row_key
),

-- One row per version even if the same change arrives again through both inputs.
distinct_versions as (
    select *
    from (
        select
            versions.*,
            row_number() over (
                partition by table_id, row_key, change_id, is_deletion order by landed_at
            ) as copy_rank
        from versions
    ) as ranked
    where copy_rank = 1
),

-- When each version took effect: its commit time; a version whose commit time is unknown
-- (full-load or backfill messages often carry none) takes the one of the version before it,
-- and a first version without one is valid from the beginning of history (null).
timed as (
    select
        distinct_versions.*,
        coalesce(
            committed_at,
            last_value(committed_at, true) over (
                partition by table_id, row_key order by sort_key
                rows between unbounded preceding and 1 preceding
            )
        ) as valid_since,
        {{ key_has_partial_image() }} as key_has_partial
    from distinct_versions
),

ordered as (
    select
        timed.*,
        lead(sort_key) over (partition by table_id, row_key order by sort_key) as next_sort_key,
        lead(valid_since) over (partition by table_id, row_key order by sort_key) as next_valid_since,
        -- partial images merge over the last full image at or before this version; only a
        -- key with a partial image collects its history (a running list grows as n^2)
        collect_list(
            case when key_has_partial then struct(sort_key, after_is_partial, change_image) end
        ) over (
            partition by table_id, row_key order by sort_key
            rows between unbounded preceding and current row
        ) as history_so_far
    from timed
),
{%- if any_clearings %}

    clearings as (
        select
            table_id,
            sort_key as cleared_sort_key,
            committed_at as cleared_at
        from {{ ref('schema_changes') }}
        where clears_table and table_id is not null
    ),

    -- The first truncate after a live version and before the next version ends it.
    closing_clearings as (
        select
            ordered.table_id,
            ordered.row_key,
            ordered.sort_key,
            min_by(clearings.cleared_at, clearings.cleared_sort_key) as cleared_at,
            -- a truncate whose commit time is unknown still ends the version
            true as is_cleared
        from ordered
        inner join clearings
            on
                ordered.table_id = clearings.table_id
                and ordered.sort_key < clearings.cleared_sort_key
                and (ordered.next_sort_key is null or ordered.next_sort_key > clearings.cleared_sort_key)
        where not ordered.is_deletion
        group by ordered.table_id, ordered.row_key, ordered.sort_key
    ),
{%- else %}

-- no truncate or dropped table anywhere: no version is ended by one
closing_clearings as (
    select
        cast(null as string) as table_id,
        cast(null as string) as row_key,
        cast(null as string) as sort_key,
        cast(null as timestamp) as cleared_at,
        cast(null as boolean) as is_cleared
    where false
),
{%- endif %}

final as (
    select
        ordered.table_id,
        ordered.row_key,
        ordered.source_format,
        ordered.change_id,
        ordered.operation,
        ordered.is_deletion as is_deleted,
        ordered.after_is_partial,
        ordered.change_image,
        case
            -- a full image is the version's image (what the merge below gives for it)
            when not ordered.after_is_partial then coalesce(ordered.change_image, cast(map() as map<string, string>))
            -- partial images merge over the history from the last full (non-partial) image, or
            -- from the first version
            else {{ merge_partial_images(
                "slice(
                    history_so_far,
                    coalesce(
                        size(history_so_far) + 1 - nullif(
                            array_position(reverse(transform(history_so_far, step -> not step.after_is_partial)), true),
                            0
                        ),
                        1
                    ),
                    size(history_so_far)
                )",
                'change_image'
            ) }}
        end as row_image,
        ordered.sort_key,
        ordered.valid_since as valid_from,
        case
            when closing_clearings.is_cleared then closing_clearings.cleared_at
            else ordered.next_valid_since
        end as valid_to,
        case
            when closing_clearings.is_cleared then 'truncate'
            when ordered.next_sort_key is not null then 'next_version'
        end as ended_by,
        ordered.next_sort_key is null and closing_clearings.is_cleared is null as is_current,
        ordered.landed_at,
        refresh_mark.refreshed_through,
        refresh_mark.refreshed_through_by_format,
        ordered.key_bucket
    from ordered
    cross join refresh_mark
    left join closing_clearings
        on
            ordered.table_id = closing_clearings.table_id
            and ordered.row_key = closing_clearings.row_key
            and ordered.sort_key = closing_clearings.sort_key
    {%- if is_incremental() %}
        union all
        -- the rows carried over, with this run's marks (macro untouched_layer_rows)
        select * from untouched_rows
    {%- endif %}
)

-- Into the layer this run writes, with the delta layer's placeholder row.
select * from ({{ state_layer_output('final', write_layer) }}) as layered
