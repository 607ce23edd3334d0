{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('shareplex' in var('cdc_formats')),
    )
}}

-- One row per landed SharePlex message: inserts, updates (partial after image), deletes,
-- update halves, truncates and column drops, and invalid messages with a reason.
with landed as (
    {{ landed_messages('shareplex') }}
),

events as (
    {{ shareplex__events('landed') }}
),

new_events as (
    {{ new_rows_only('events', 'event_id', 'landed_at') }}
)

select
    {{ select_event_columns('new_events') }}
from new_events
