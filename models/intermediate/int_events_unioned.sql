{{ config(materialized='ephemeral') }}

-- Every enabled format's staging events in one relation (inlined, not stored).
{% for format_id in cdc_enabled_formats() %}
    select * from {{ ref(cdc_format(format_id)['staging_model']) }}
    {% if not loop.last %}union all{% endif %}
{% endfor %}
