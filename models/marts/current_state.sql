{{ config(materialized='view') }}

-- Latest state of every source row ever seen, one row per (table_id, row_key), tombstones
-- included (docs/current-state.md). A view over the two layers int_current_state_layers is
-- stored in: a key's row in the delta layer (changed since the last compaction) replaces its
-- row in the base layer, so a small batch rewrites the keys it touches, not the table.
with current_rows as (
    {{ state_current_rows(ref('int_current_state_layers')) }}
)

select
    table_id,
    row_key,
    {{ state_table_columns() }},
    row_image,
    image_is_merged,
    column_types,
    is_deleted,
    deleted_by,
    last_operation,
    last_change_id,
    sort_key,
    committed_at,
    landed_at,
    refreshed_through,
    refreshed_through_by_format,
    key_bucket
from current_rows
