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
-- functions), so it is incremental, never a view. A read whose messages hold no decimal
-- and no HBase cell skips them (debezium__read_needs_decoders).
{%- set read_plan = staging_read_plan('debezium') %}
{%- if read_plan.nothing_new %}
-- nothing landed since the last complete batch: nothing to parse
{{ cdc_nothing_new_sql() }}
{%- else %}
{%- set decode_values = debezium__read_needs_decoders(read_plan) %}
with landed as (
    {{ landed_messages('debezium', read_plan) }}
),

new_messages as (
    {{ unstaged_messages('landed', 'debezium', read_plan) }}
),

events as (
    {{ debezium__events('new_messages', decode_values=decode_values) }}
)

select
    {{ select_event_columns('events', derive_change_id=true, apply_configured_types=true) }}
from events
{%- endif %}
