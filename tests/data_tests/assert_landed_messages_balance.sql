-- Accounting, the equation per format: messages landed in the raw relation = messages that
-- produced row changes + messages that produced only control events + quarantined messages
-- (stream_progress). Returns the formats where the two sides differ.
with landed as (
    {% for format_id in cdc_enabled_formats() %}
        select
            '{{ format_id }}' as source_format,
            count(distinct message_id) as messages_landed
        from ({{ landed_messages(format_id, committed_read_plan(format_id)) }}) as landed_{{ loop.index }}
        {% if not loop.last %}union all{% endif %}
    {% endfor %}
),

accounted as (
    select
        source_format,
        sum(messages_with_row_changes) as messages_with_row_changes,
        sum(control_messages) as control_messages,
        sum(quarantined_messages) as quarantined_messages
    from {{ ref('stream_progress') }}
    group by source_format
)

select
    landed.source_format,
    landed.messages_landed,
    coalesce(accounted.messages_with_row_changes, 0) as messages_with_row_changes,
    coalesce(accounted.control_messages, 0) as control_messages,
    coalesce(accounted.quarantined_messages, 0) as quarantined_messages
from landed
left join accounted
    on landed.source_format = accounted.source_format
where
    landed.messages_landed
    <> coalesce(accounted.messages_with_row_changes, 0)
    + coalesce(accounted.control_messages, 0)
    + coalesce(accounted.quarantined_messages, 0)
