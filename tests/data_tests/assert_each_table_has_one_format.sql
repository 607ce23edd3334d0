{{ config(severity='warn') }}

-- A table_id fed by more than one format: each format's sort keys order its own changes, but
-- keys of different formats do not compare, so current_state may pick the wrong latest row.
-- Warns (a migration between CDC tools can do this on purpose); returns the tables.
select
    table_id,
    collect_set(source_format) as source_formats,
    count(*) as changes
from {{ ref('change_log') }}
group by table_id
having count(distinct source_format) > 1
