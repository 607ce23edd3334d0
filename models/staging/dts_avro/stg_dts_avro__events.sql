{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        enabled=('dts_avro' in var('cdc_formats')),
    )
}}

-- One row per landed DTS Avro record: a row change, a truncate or DDL, a transaction marker,
-- a heartbeat/checkpoint or other control record, or an invalid record with a reason.
-- Calls the Python UDF cdc_decode_dts_avro (a temporary function), so it is incremental,
-- never a view.
with landed as (
    {{ landed_messages('dts_avro') }}
),

events as (
    {{ dts_avro__events('landed') }}
),

new_events as (
    {{ new_rows_only('events', 'event_id', 'landed_at') }}
)

select
    {{ select_event_columns('new_events') }}
from new_events
