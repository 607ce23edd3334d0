-- Accounting, the equation per format: messages landed in the raw relation = messages that
-- produced row changes + messages that produced only control events + quarantined messages
-- (stream_progress). Returns the formats where the two sides differ.
-- In a `dbt build`, per format only the batches landed since the test last passed
-- (checked_read_plan, checked_since): their messages against their rows in int_stream_batches,
-- the per-batch counts stream_progress sums. Every batch is checked once, so the sums balance
-- when every window did; a format checked whole (no mark) is compared with stream_progress.
-- On a small history the whole relations are compared (macro checked_lookups_in_window).
-- depends_on: {{ ref('int_stream_batches') }}
{%- set in_window = checked_lookups_in_window() %}
with landed as (
    {% for format_id in cdc_enabled_formats() %}
        {%- set read_plan = checked_read_plan(format_id) if in_window else committed_read_plan(format_id) %}
        select
            '{{ format_id }}' as source_format,
            count(distinct message_id) as messages_landed
        from ({{ landed_messages(format_id, read_plan) }}) as landed_{{ loop.index }}
        {% if not loop.last %}union all{% endif %}
    {% endfor %}
),

accounted as (
    {% for format_id in cdc_enabled_formats() %}
        select
            source_format,
            sum(messages_with_row_changes) as messages_with_row_changes,
            sum(control_messages) as control_messages,
            sum(quarantined_messages) as quarantined_messages
        {#- the batches in the window, or the stream's sums when checked whole -#}
        {%- set windowed = in_window and format_id in cdc_checked_window() %}
        {%- set counts = ref('int_stream_batches') if windowed else ref('stream_progress') %}
        from {{ counts }} as counted
        {%- set since = checked_since('counted', format_id) if windowed else 'true' %}
        where counted.source_format = '{{ format_id }}' and {{ since }}
        group by source_format
        {% if not loop.last %}union all{% endif %}
    {% endfor %}
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
