{{
    config(
        materialized='incremental',
        incremental_strategy='append',
    )
}}

-- Updates that arrive as two messages (a before half and an after half sharing a pairing key,
-- e.g. DataWorks UPDATE_BEFOR + UPDATE_AFTER with one sequenceId) become one update.
-- Halves may land in different batches: every group touched by a newly landed half is
-- regrouped from all halves (a full build regroups every group). A group is emitted once
-- both halves are there; a half alone is held (listed in unpaired_update_halves): only the
-- pair tells whether the key changed.
{%- set window = read_window() %}
{%- if staged_events_none_since(['update_half'], window) %}
-- no half landed in the read window, so no group is touched: the statement is skipped
{{ cdc_nothing_in_window_marker() }}
{%- endif %}
with halves as (
    select * from {{ ref('int_events_unioned') }}
    where event_class = 'update_half'
),

{% if is_incremental() %}
    touched_groups as (
        select distinct
            source_format,
            table_id,
            pairing_key
        from halves
        where {{ landed_since_mark('halves', window) }}
    ),

    -- An inner join on touched_groups (it is distinct), not a semi join: Spark pushes a semi
    -- join below the union of the staging models, each branch with its own copy of
    -- touched_groups' plan (13 exchanges against 5 on a 1% increment of 1M messages,
    -- bench/results/2026-12-03-night-one-shuffle/). Distributed by group: see the full
    -- build's candidate_halves below.
    -- The key ranges of the new halves (macro window_pairing_key_ranges) let Parquet skip
    -- the earlier batches' files, which the join cannot: the lookup reads about the new
    -- batches, not every half ever landed.
    candidate_halves as (
        select /*+ broadcast(touched_groups) */ halves.*
        from halves
        inner join touched_groups
            on
                halves.source_format = touched_groups.source_format
                and halves.table_id = touched_groups.table_id
                and halves.pairing_key = touched_groups.pairing_key
        where {{ window_pairing_key_ranges('halves', window) }}
        distribute by halves.source_format, halves.table_id, halves.pairing_key
    ),
{%- else %}

    -- A full build regroups every half: every group is touched, so no join with the touched
    -- groups (it read the halves twice and broadcast every group for nothing; figures in
    -- bench/results/2026-11-30-night-halves/). The keys the join compared must be there, as
    -- it required.
    -- Distributed by group once: both windows below and the grouping partition by these keys
    -- and more, so Spark shuffles the halves once instead of three times
    -- (bench/results/2026-12-03-night-one-shuffle/).
    candidate_halves as (
        select halves.*
        from halves
        where
            halves.source_format is not null
            and halves.table_id is not null
            and halves.pairing_key is not null
        distribute by halves.source_format, halves.table_id, halves.pairing_key
    ),
{%- endif %}

-- The k-th before half of a pairing key pairs with its k-th after half (macro
-- update_half_ordinals); copies of one half share its ordinal.
ranked_halves as (
    {{ update_half_ordinals('candidate_halves') }}
),

-- The earliest landed copy of each half wins when a half is delivered twice.
grouped as (
    select
        source_format,
        table_id,
        pairing_key,
        pair_ordinal,
        min_by(struct(ranked_halves.*), sort_key) filter (where operation = 'update_after') as after_half,
        min_by(struct(ranked_halves.*), sort_key) filter (where operation = 'update_before') as before_half
    from ranked_halves
    group by source_format, table_id, pairing_key, pair_ordinal
),

paired as (
    select
        after_half.*,
        before_half.before as paired_before,
        before_half.event_id as before_event_id,
        greatest(after_half.landed_at, before_half.landed_at) as pair_landed_at
    from grouped
    where
        after_half is not null
        and before_half is not null
),

updates as (
    select
        sha2(concat_ws(':', event_id, coalesce(before_event_id, '')), 256) as pair_id,
        event_id,
        cast(null as string) as change_id,
        message_id,
        row_index,
        source_format,
        'change' as event_class,
        quarantine_reason,
        vendor_operation,
        'update' as operation,
        source_system,
        source_database,
        source_schema,
        source_table,
        table_id,
        primary_key_columns,
        row_key,
        case
            when {{ key_text('primary_key_columns', 'paired_before') }} <> row_key
                then {{ key_text('primary_key_columns', 'paired_before') }}
            when
                row_key_kind = 'row_hash' and paired_before is not null
                and sha2({{ canonical_map_json('paired_before') }}, 256) <> row_key
                then sha2({{ canonical_map_json('paired_before') }}, 256)
        end as previous_row_key,
        row_key_kind,
        paired_before as before,
        after,
        after_is_partial,
        column_types,
        committed_at,
        captured_at,
        source_position,
        sort_key,
        transaction_id,
        pairing_key,
        ddl_text,
        ddl_meta,
        source_metadata,
        raw_value,
        raw_relation,
        stream_name,
        origin,
        origin_partition,
        origin_offset,
        pair_landed_at as landed_at,
        landing_batch_id
    from paired
),

-- One row per pair_id already: each group above has one row, and its winning after half
-- belongs to that group only. So only the pairs an earlier run emitted are left out. Such a
-- pair belongs to a touched group: the held pairs are looked up there (an incremental run),
-- not by computing `updates` a second time for its ids (bench/results/2026-12-05-held-pairs/).
new_updates as (
    {{ new_rows_only('updates', 'pair_id', 'landed_at', deduplicate=false,
                     held_within={'relation': 'touched_groups',
                                  'columns': ['source_format', 'table_id', 'pairing_key']}) }}
)

select
    pair_id,
    {{ select_event_columns('new_updates', derive_change_id=true) }}
from new_updates
