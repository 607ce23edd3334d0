{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('datahub_tuple' in var('cdc_formats')),
    )
}}

-- One row per landed DataHub Tuple record: inserts, deletes and update halves (paired by
-- _sequence_id_ downstream), and invalid records with a reason.
with landed as (
    {{ landed_messages('datahub_tuple') }}
),

events as (
    {{ datahub_tuple__events('landed') }}
),

new_events as (
    {{ new_rows_only('events', 'event_id', 'landed_at') }}
)

select
    {{ select_event_columns('new_events') }}
from new_events
