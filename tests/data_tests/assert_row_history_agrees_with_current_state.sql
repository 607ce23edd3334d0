-- The current version of every row in row_history is the row of current_state: same
-- deciding change, same deletion state (a truncate closes the version in both).
select
    current_state.table_id,
    current_state.row_key,
    current_state.last_change_id,
    history.change_id
from {{ ref('current_state') }} as current_state
left join {{ ref('row_history') }} as history
    on current_state.table_id = history.table_id
    and current_state.row_key = history.row_key
    and current_state.sort_key = history.sort_key
    and current_state.is_deleted = (history.is_deleted or not history.is_current)
where history.change_id is null
    or not (history.is_current or history.ended_by = 'truncate')
