{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('shareplex' in var('cdc_formats')),
    )
}}

-- One row per landed SharePlex message: inserts, updates (partial after image), deletes,
-- update halves, truncates and column drops, and invalid messages with a reason.
{%- set read_plan = staging_read_plan('shareplex') %}
{%- if read_plan.nothing_new %}
-- nothing landed since the last complete batch: nothing to parse
{{ cdc_nothing_new_sql() }}
{%- else %}
with landed as (
    {{ landed_messages('shareplex', read_plan) }}
),

new_messages as (
    {{ unstaged_messages('landed', 'shareplex', read_plan) }}
),

events as (
    {{ shareplex__events('new_messages') }}
)

select
    {{ select_event_columns('events', derive_change_id=true, apply_configured_types=true) }}
from events
{%- endif %}
