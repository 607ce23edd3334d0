-- Accounting, first step: every landed message of every enabled format produced at least
-- one staging event (a change, a control event, or a quarantine row). Returns the lost ones.
-- Landed means committed: a batch whose landing has not recorded its commit is not read yet.
-- In a `dbt build`, only the messages landed since the test last passed (checked_read_plan;
-- a message's staged events carry its landing time, so checked_since bounds them alike).
{% for format_id in cdc_enabled_formats() %}
    select
        '{{ format_id }}' as source_format,
        landed.message_id
    from ({{ landed_messages(format_id, checked_read_plan(format_id)) }}) as landed
    left anti join (
        select staged.message_id
        from {{ ref(cdc_format(format_id)['staging_model']) }} as staged
        where {{ checked_since('staged', format_id) }}
    ) as staged
        on landed.message_id = staged.message_id
    {% if not loop.last %}union all{% endif %}
{% endfor %}
