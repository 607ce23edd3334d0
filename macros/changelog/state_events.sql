{#
    The change log rows of `changes` as state events: one per change, plus a delete of the old
    key for a change that moved a row to a new key (primary-key update), from one read of the
    changes. current_state decides its winners from them, row_history takes its new versions
    from them. `image_is_merged` is false: a change's image is its own (prior current_state
    rows carry theirs).
#}
{% macro state_events(changes) -%}
    select
        table_id,
        case when is_old_key then previous_row_key else row_key end as row_key,
        case when is_old_key then {{ key_bucket('table_id', 'previous_row_key') }} else key_bucket end as key_bucket,
        {{ state_table_columns() }},
        column_types,
        case when is_old_key then 'delete' else operation end as operation,
        not is_old_key and after_is_partial as after_is_partial,
        false as image_is_merged,
        case when is_old_key or operation = 'delete' then before else after end as image,
        is_old_key or operation = 'delete' as is_deleted,
        change_id,
        sort_key,
        committed_at,
        landed_at
    from {{ changes }} as changes
    lateral view explode(
        case when previous_row_key is null then array(false) else array(false, true) end
    ) old_key as is_old_key
{%- endmacro %}


{#
    A lateral view over change log rows aliased `alias`: one row per key the change touches,
    its `row_key` and, for a change that moved a row to a new key, its `previous_row_key` too,
    as `touched_key.row_key`. One read of the change log where a union of two reads would
    expand the change_log view (a union over every staging model) twice in the plan.
#}
{% macro touched_keys_view(alias) -%}
    lateral view explode(
        case
            when {{ alias }}.previous_row_key is null then array({{ alias }}.row_key)
            else array({{ alias }}.row_key, {{ alias }}.previous_row_key)
        end
    ) touched_key as row_key
{%- endmacro %}


{#
    What a state row (and a state event) says of its source table and key, besides
    (table_id, row_key), as its latest change has it: in current_state's column order.
#}
{% macro state_table_columns() -%}
    source_format,
    source_system,
    source_database,
    source_schema,
    source_table,
    primary_key_columns,
    row_key_kind
{%- endmacro %}


{#
    True for every change of a key when any change of that key carries a partial after image
    (SharePlex `upd`, Debezium without full images) or does not say (a null
    `after_is_partial` counts as partial). Only such keys need the merge of partial images
    over the last full one; both state models skip it for the others.
#}
{% macro key_has_partial_image() -%}
    bool_or(coalesce(after_is_partial, true)) over (partition by table_id, row_key)
{%- endmacro %}


{#
    The row image partial after images give: the images of `steps` (an SQL array of structs in
    sort_key order, each with the map field `image_field`) folded left from an empty map, a
    later image's columns replacing an earlier one's, a null image adding nothing. Both state
    models merge a key's partial images over its last full image with it.
#}
{% macro merge_partial_images(steps, image_field) -%}
    aggregate(
        {{ steps }},
        cast(map() as map<string, string>),
        (merged, step) -> map_concat(
            map_filter(merged, (k, v) -> not map_contains_key(coalesce(step.{{ image_field }}, map()), k)),
            coalesce(step.{{ image_field }}, cast(map() as map<string, string>))
        )
    )
{%- endmacro %}
