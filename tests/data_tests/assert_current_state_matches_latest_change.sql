-- current_state agrees with the change log: for every key, the state's sort_key is the
-- greatest sort_key among the changes to that key (or to its old key, for key changes).
-- In a `dbt build`, only the keys changed since the test last passed (state_checked_keys).
{%- set checked_keys = state_checked_keys(['int_current_state_layers']) %}
{%- set keys_relation = 'checked_keys' if checked_keys else none %}
with
{%- if checked_keys %}
checked_keys as (
    {{ checked_keys }}
),
{%- endif %}

-- every change under its key and, for a key change, its old key too (one read of the log)
keyed_changes as (
    select
        changes.table_id,
        touched_key.row_key,
        changes.sort_key
    from {{ ref('change_log') }} as changes
        {{ touched_keys_view('changes') }}
),

checked_changes as (
    {{ checked_key_rows('keyed_changes', keys_relation) }}
),

latest_change as (
    select
        table_id,
        row_key,
        max(sort_key) as sort_key
    from checked_changes
    group by table_id, row_key
),

checked_state as (
    {{ checked_key_rows(ref('current_state'), keys_relation) }}
)

select
    latest_change.table_id,
    latest_change.row_key,
    latest_change.sort_key as expected_sort_key,
    checked_state.sort_key as actual_sort_key
from latest_change
full outer join checked_state
    on
        latest_change.table_id = checked_state.table_id
        and latest_change.row_key = checked_state.row_key
where latest_change.sort_key is distinct from checked_state.sort_key
