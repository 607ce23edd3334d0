{{ config(materialized='ephemeral') }}

-- Messages landed again by `cdc-pipeline requeue`, from every enabled format's landing table:
-- origin `requeue/<batch>/<first origin>`, the first landing's partition and offset. The
-- quarantine_open mart reads them here, never from the sources itself.
with
{%- for format_id in cdc_enabled_formats() %}
    {{ format_id }}_landed as (
        {{ landed_messages(format_id) }}
    ),
{% endfor %}

requeued as (
    {%- for format_id in cdc_enabled_formats() %}
        select
            {{ format_id }}_landed.raw_relation,
            regexp_replace({{ format_id }}_landed.origin, '^requeue/[^/]+/', '') as first_origin,
            {{ format_id }}_landed.origin_partition,
            {{ format_id }}_landed.origin_offset,
            {{ format_id }}_landed.landed_at
        from {{ format_id }}_landed
        where {{ format_id }}_landed.origin like 'requeue/%'
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}
)

select
    requeued.raw_relation,
    requeued.first_origin,
    requeued.origin_partition,
    requeued.origin_offset,
    requeued.landed_at
from requeued
