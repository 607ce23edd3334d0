{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('canal' in var('cdc_formats')),
    )
}}

-- One row per element of data[] of each landed Canal message (row changes), one row per DDL,
-- truncate, transaction marker or heartbeat, and invalid messages (or rows) with a reason.
with landed as (
    {{ landed_messages('canal') }}
),

events as (
    {{ canal__events('landed') }}
),

new_events as (
    {{ new_rows_only('events', 'event_id', 'landed_at') }}
)

select
    {{ select_event_columns('new_events') }}
from new_events
