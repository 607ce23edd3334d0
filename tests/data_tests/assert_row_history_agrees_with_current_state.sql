-- The current version of every row in row_history is the row of current_state: same
-- deciding change, same deletion state (a truncate closes the version in both).
-- In a `dbt build`, only the keys changed since the test last passed (state_checked_keys).
{%- set checked_keys = state_checked_keys(['int_current_state_layers', 'int_row_history_layers']) %}
{%- set keys_relation = 'checked_keys' if checked_keys else none %}
with
{%- if checked_keys %}
checked_keys as (
    {{ checked_keys }}
),
{%- endif %}

checked_state as (
    {{ checked_key_rows(ref('current_state'), keys_relation) }}
),

checked_history as (
    {{ checked_key_rows(ref('row_history'), keys_relation) }}
)

select
    checked_state.table_id,
    checked_state.row_key,
    checked_state.last_change_id,
    checked_history.change_id
from checked_state
left join checked_history
    on
        checked_state.table_id = checked_history.table_id
        and checked_state.row_key = checked_history.row_key
        and checked_state.sort_key = checked_history.sort_key
        and checked_state.is_deleted = (checked_history.is_deleted or not checked_history.is_current)
where
    checked_history.change_id is null
    or not (checked_history.is_current or checked_history.ended_by = 'truncate')
