{{ config(materialized='view') }}

-- SCD type 2 history built from the change log: one row per version of a source row, with
-- valid_from / valid_to (docs/current-state.md). A view over the two layers
-- int_row_history_layers is stored in: a key's versions in the delta layer (changed since the
-- last compaction) replace its versions in the base layer.
with current_rows as (
    {{ state_current_rows(ref('int_row_history_layers')) }}
)

select
    table_id,
    row_key,
    source_format,
    change_id,
    operation,
    is_deleted,
    after_is_partial,
    change_image,
    row_image,
    sort_key,
    valid_from,
    valid_to,
    ended_by,
    is_current,
    landed_at,
    refreshed_through,
    refreshed_through_by_format,
    key_bucket
from current_rows
