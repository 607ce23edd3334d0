-- Accounting, first step: every landed message of every enabled format produced at least
-- one staging event (a change, a control event, or a quarantine row). Returns the lost ones.
-- Landed means committed: a batch whose landing has not recorded its commit is not read yet.
{% for format_id in cdc_enabled_formats() %}
select
    '{{ format_id }}' as source_format,
    landed.message_id
from ({{ landed_messages(format_id, committed_read_plan(format_id)) }}) as landed
left anti join {{ ref(cdc_format(format_id)['staging_model']) }} as staged
    on landed.message_id = staged.message_id
{% if not loop.last %}union all{% endif %}
{% endfor %}
