{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('datastream' in var('cdc_formats')),
    )
}}

-- One row per landed Datastream event (JSON event, or one record of an Avro container file
-- decoded at landing): row changes in the staging contract, invalid events with a reason.
with landed as (
    {{ landed_messages('datastream') }}
),

events as (
    {{ datastream__events('landed') }}
),

new_events as (
    {{ new_rows_only('events', 'event_id', 'landed_at') }}
)

select
    {{ select_event_columns('new_events') }}
from new_events
