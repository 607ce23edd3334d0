{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('dataworks' in var('cdc_formats')),
    )
}}

-- One row per event of each landed DataWorks message: row changes, update halves,
-- DDL, truncates, transaction markers, heartbeats, and invalid messages with a reason.
{%- set read_plan = staging_read_plan('dataworks') %}
{%- if read_plan.nothing_new %}
-- nothing landed since the last complete batch: nothing to parse
{{ cdc_nothing_new_sql() }}
{%- else %}
with landed as (
    {{ landed_messages('dataworks', read_plan) }}
),

new_messages as (
    {{ unstaged_messages('landed', 'dataworks', read_plan) }}
),

events as (
    {{ dataworks__events('new_messages') }}
)

select
    {{ select_event_columns('events', derive_change_id=true, apply_configured_types=true) }}
from events
{%- endif %}
