{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('debezium' in var('cdc_formats')),
    )
}}

-- One row per event of each landed Debezium message: row changes, truncates,
-- DDL, transaction markers, heartbeats, tombstones, and invalid messages with a reason.
-- Calls the Python UDFs cdc_decode_debezium_decimals and cdc_decode_hbase_image (temporary
-- functions), so it is incremental, never a view.
with landed as (
    {{ landed_messages('debezium') }}
),

events as (
    {{ debezium__events('landed') }}
),

new_events as (
    {{ new_rows_only('events', 'event_id', 'landed_at') }}
)

select
    {{ select_event_columns('new_events') }}
from new_events
