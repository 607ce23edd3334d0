{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('datastream' in var('cdc_formats')),
    )
}}

-- One row per landed Datastream event (JSON event, or one record of an Avro container file
-- decoded at landing): row changes in the staging contract, invalid events with a reason.
{%- set read_plan = staging_read_plan('datastream') %}
{%- if read_plan.nothing_new %}
-- nothing landed since the last complete batch: nothing to parse
{{ cdc_nothing_new_sql() }}
{%- else %}
with landed as (
    {{ landed_messages('datastream', read_plan) }}
),

new_messages as (
    {{ unstaged_messages('landed', 'datastream', read_plan) }}
),

events as (
    {{ datastream__events('new_messages') }}
)

select
    {{ select_event_columns('events', derive_change_id=true, apply_configured_types=true) }}
from events
{%- endif %}
