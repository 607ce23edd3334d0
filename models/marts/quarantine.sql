{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        on_schema_change='append_new_columns',
    )
}}

-- Raw messages (or rows of them) that could not be parsed or break the contract, with a
-- reason code and its specific cause (docs/quarantine.md), the raw text and its lineage.
-- Nothing is dropped silently.
{%- set window = read_window() %}
{%- if staged_events_none_since(['invalid'], window) %}
-- nothing invalid in the read window: the statement is skipped
{{ cdc_nothing_in_window_marker() }}
{%- endif %}
with invalid_events as (
    {{ staged_events_since(['invalid'], window) }}
),

-- An event its table's previously seen key keyed is a change (int_rekeyed_changes), not here.
rekeyed as (
    select rekeyed_changes.event_id
    from {{ ref('int_rekeyed_changes') }} as rekeyed_changes
    where {{ landed_since_mark('rekeyed_changes', window) }}
),

-- The meaning of each reason code (the fallback of reason_detail).
reason_meanings as (
    select
        reason_code as meaning_code,
        meaning as reason_meaning
    from {{ ref('cdc_quarantine_reasons') }}
),

shaped as (
    select
        event_id as quarantine_id,
        source_format,
        quarantine_reason as reason_code,
        {{ quarantine_reason_detail('reason_meanings.reason_meaning') }} as reason_detail,
        vendor_operation,
        table_id,
        raw_value,
        message_id,
        row_index,
        raw_relation,
        stream_name,
        origin,
        origin_partition,
        origin_offset,
        landed_at,
        landing_batch_id
    from invalid_events
    left join reason_meanings
        on invalid_events.quarantine_reason = reason_meanings.meaning_code
    left anti join rekeyed
        on invalid_events.event_id = rekeyed.event_id
),

new_rows as (
    {{ new_rows_only('shaped', 'quarantine_id', 'landed_at') }}
)

-- noqa: disable=LT02
-- (LT02 off: sqlfluff cannot place a Jinja loop's lines; see .sqlfluff)
select
    {%- for column in quarantine_columns() %}
    {{ column }}{{ "," if not loop.last }}
    {%- endfor %}
-- noqa: enable=LT02
from new_rows
