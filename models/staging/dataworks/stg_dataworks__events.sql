{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('dataworks' in var('cdc_formats')),
    )
}}

-- One row per event of each landed DataWorks message: row changes, update halves,
-- DDL, truncates, transaction markers, heartbeats, and invalid messages with a reason.
with landed as (
    {{ landed_messages('dataworks') }}
),

events as (
    {{ dataworks__events('landed') }}
),

new_events as (
    {{ new_rows_only('events', 'event_id', 'landed_at') }}
)

select
    {{ select_event_columns('new_events') }}
from new_events
