{{ config(severity='warn') }}

-- Tables whose rows are keyed by a physical row id or a hash of the whole row: no message
-- named their key and no `cdc_primary_keys` entry gives it. An update of such a row may
-- become a new row and a delete may remove nothing (an Oracle row id can change, a row hash
-- changes with every update). Warns with the setting that would key the table: the columns
-- present in every change of it, key-like names (`id`, `*_id`, `*pk*`, `*key*`) first.
with unkeyed as (
    select
        table_id,
        collect_set(row_key_kind) as row_key_kinds,
        count(*) as rows_in_state
    from {{ ref('current_state') }}
    where row_key_kind in ('row_id', 'row_hash')
    group by table_id
),

images as (
    select
        changes.table_id,
        map_filter(coalesce(changes.after, changes.before), (name, value) -> value is not null) as image
    from {{ ref('change_log') }} as changes
    inner join unkeyed
        on changes.table_id = unkeyed.table_id
),

images_counted as (
    select
        table_id,
        image,
        count(*) over (partition by table_id) as changes
    from images
),

presence as (
    select
        table_id,
        column_name,
        count(*) as present,
        max(changes) as changes
    from images_counted
        lateral view explode(map_keys(image)) image_columns as column_name
    group by table_id, column_name
),

columns_everywhere as (
    select
        table_id,
        sort_array(collect_list(struct(
            not column_name rlike '(?i)^(id|.*_id|.*pk.*|.*key.*)$' as not_key_like,
            column_name
        ))) as candidates
    from presence
    where present = changes
    group by table_id
)

select
    unkeyed.table_id,
    unkeyed.row_key_kinds,
    unkeyed.rows_in_state,
    transform(columns_everywhere.candidates, candidate -> candidate.column_name) as candidate_key_columns,
    -- the entry for `cdc_primary_keys` (dbt_project.yml vars or --vars): check the column first
    to_json(map(
        unkeyed.table_id,
        array(coalesce(columns_everywhere.candidates[0].column_name, '<key column>'))
    )) as suggested_primary_keys
from unkeyed
left join columns_everywhere
    on unkeyed.table_id = columns_everywhere.table_id
