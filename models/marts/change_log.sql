{{ config(materialized='view') }}

-- The canonical change log: one row per row-level change, from every format.
-- A view: each change is written once, by its format's staging model (or, for an update that
-- arrived in two halves, by int_update_halves_paired; for a change keyed by its table's
-- previously seen key, by int_rekeyed_changes), and read here in the contract's shape.
-- A change delivered more than once (same change_id) is listed once: its other copies are in
-- int_redelivered_changes, which the view leaves out.
-- A format whose updates come as two changes (an old-row delete, a new-row upsert) lists the
-- pairs with an unchanged key in its update_pairs_model: each pair reads as one update, the
-- new-row half with the old row as `before`, the old-row half left out.
-- noqa: disable=LT02
-- (LT02 off: sqlfluff cannot place a Jinja loop's lines; see .sqlfluff)
with changes as (
    {%- for format_id in cdc_enabled_formats() %}
    {%- set pairs_model = cdc_format(format_id).get('update_pairs_model') %}
    select
        {%- for name, _ in event_columns() %}
        {%- if pairs_model and name == 'before' %}
        coalesce(pair.before, staged.before) as before{{ "," if not loop.last }}
        {%- else %}
        staged.{{ name }}{{ "," if not loop.last }}
        {%- endif %}
        {%- endfor %}
    from {{ ref(cdc_format(format_id)['staging_model']) }} as staged
    {%- if pairs_model %}
    left join {{ ref(pairs_model) }} as pair
        on staged.change_id = pair.update_change_id
    left join {{ ref(pairs_model) }} as paired_old_row
        on staged.change_id = paired_old_row.old_row_change_id
    {%- endif %}
    where staged.event_class = 'change'
        {%- if pairs_model %}
        and paired_old_row.old_row_change_id is null
        {%- endif %}
    union all
    {%- endfor %}
    {%- for derived_model in derived_change_models() %}
    select
        {%- for name, _ in event_columns() %}
        derived.{{ name }}{{ "," if not loop.last }}
        {%- endfor %}
    from {{ ref(derived_model) }} as derived
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
)

select
    {%- for column in change_log_columns() %}
    {%- if column == 'key_bucket' %}
    {{ key_bucket('changes.table_id', 'changes.row_key') }} as key_bucket
    {%- else %}
    changes.{{ column }}
    {%- endif %}{{ "," if not loop.last }}
    {%- endfor %}
from changes
-- noqa: enable=LT02
-- an outer join, not an anti join: Spark pushes an anti join below the union, into a copy
-- per staging model, and a state model's plan holds this view in many places
left join {{ ref('int_redelivered_changes') }} as repeated
    on changes.event_id = repeated.event_id
where repeated.event_id is null
