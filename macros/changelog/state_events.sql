{#
    The change log rows of the CTE `changes` as state events: one per change, plus a delete of
    the old key for a change that moved a row to a new key (primary-key update). current_state
    decides its winners from them, row_history takes its new versions from them.
    `image_is_merged` is false: a change's image is its own (prior current_state rows carry
    theirs).
#}
{% macro state_events(changes) -%}
    select
        table_id,
        row_key,
        key_bucket,
        source_format,
        source_system,
        source_database,
        source_schema,
        source_table,
        primary_key_columns,
        row_key_kind,
        column_types,
        operation,
        after_is_partial,
        false as image_is_merged,
        case when operation = 'delete' then before else after end as image,
        operation = 'delete' as is_deleted,
        change_id,
        sort_key,
        committed_at,
        landed_at
    from {{ changes }}
    union all
    select
        table_id,
        previous_row_key as row_key,
        {{ key_bucket('table_id', 'previous_row_key') }} as key_bucket,
        source_format,
        source_system,
        source_database,
        source_schema,
        source_table,
        primary_key_columns,
        row_key_kind,
        column_types,
        'delete' as operation,
        false as after_is_partial,
        false as image_is_merged,
        before as image,
        true as is_deleted,
        change_id,
        sort_key,
        committed_at,
        landed_at
    from {{ changes }}
    where previous_row_key is not null
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
