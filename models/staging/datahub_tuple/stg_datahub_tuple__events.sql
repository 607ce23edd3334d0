{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('datahub_tuple' in var('cdc_formats')),
    )
}}

-- One row per landed DataHub Tuple record: inserts, deletes and update halves (paired by
-- _sequence_id_ downstream), and invalid records with a reason.
{%- set read_plan = staging_read_plan('datahub_tuple') %}
{%- if read_plan.nothing_new %}
-- nothing landed since the last complete batch: nothing to parse
{{ cdc_nothing_new_sql() }}
{%- else %}
with landed as (
    {{ landed_messages('datahub_tuple', read_plan) }}
),

new_messages as (
    {{ unstaged_messages('landed', 'datahub_tuple', read_plan) }}
),

events as (
    {{ datahub_tuple__events('new_messages') }}
)

select
    {{ select_event_columns('events', derive_change_id=true, apply_configured_types=true) }}
from events
{%- endif %}
