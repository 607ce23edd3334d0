{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('canal' in var('cdc_formats')),
    )
}}

-- One row per element of data[] of each landed Canal message (row changes), one row per DDL,
-- truncate, transaction marker or heartbeat, and invalid messages (or rows) with a reason.
{%- set read_plan = staging_read_plan('canal') %}
{%- if read_plan.nothing_new %}
-- nothing landed since the last complete batch: nothing to parse
{{ cdc_nothing_new_sql() }}
{%- else %}
with landed as (
    {{ landed_messages('canal', read_plan) }}
),

new_messages as (
    {{ unstaged_messages('landed', 'canal', read_plan) }}
),

events as (
    {{ canal__events('new_messages') }}
)

select
    {{ select_event_columns('events', derive_change_id=true, apply_configured_types=true) }}
from events
{%- endif %}
