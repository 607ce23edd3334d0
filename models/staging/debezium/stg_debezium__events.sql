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
{%- set read_plan = staging_read_plan('debezium') %}
{%- if read_plan.nothing_new %}
-- nothing landed since the last complete batch: nothing to parse
{{ cdc_nothing_new_sql() }}
{%- else %}
with landed as (
    {{ landed_messages('debezium', read_plan) }}
),

new_messages as (
    {{ unstaged_messages('landed', 'debezium', read_plan) }}
),

-- Only messages that may hold a decimal or an HBase cell pass through the Python UDFs: a
-- UDF costs its pass over every row it reaches, needed or not.
messages_to_decode as (
    select * from new_messages
    where {{ debezium__may_need_decoders('new_messages.raw_value') }}
),

plain_messages as (
    select * from new_messages
    where not {{ debezium__may_need_decoders('new_messages.raw_value') }}
),

decoded_events as (
    {{ debezium__events('messages_to_decode', decode_values=true) }}
),

plain_events as (
    {{ debezium__events('plain_messages', decode_values=false) }}
),

events as (
    select * from decoded_events
    union all
    select * from plain_events
)

select
    {{ select_event_columns('events', derive_change_id=true) }}
from events
{%- endif %}
