-- current_state agrees with the change log: for every key, the state's sort_key is the
-- greatest sort_key among the changes to that key (or to its old key, for key changes).
with latest_change as (
    select
        table_id,
        row_key,
        max(sort_key) as sort_key
    from (
        select
            table_id,
            row_key,
            sort_key
        from {{ ref('change_log') }}
        union all
        select
            table_id,
            previous_row_key as row_key,
            sort_key
        from {{ ref('change_log') }}
        where previous_row_key is not null
    ) as keyed_changes
    group by table_id, row_key
)

select
    latest_change.table_id,
    latest_change.row_key,
    latest_change.sort_key as expected_sort_key,
    current_state.sort_key as actual_sort_key
from latest_change
full outer join {{ ref('current_state') }} as current_state
    on latest_change.table_id = current_state.table_id
    and latest_change.row_key = current_state.row_key
where latest_change.sort_key is distinct from current_state.sort_key
