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
{%- set read_plan = staging_read_plan('dts_avro') %}
{%- if read_plan.nothing_new %}
-- nothing landed since the last complete batch: nothing to parse
{{ cdc_nothing_new_sql() }}
{%- else %}
with landed as (
    {{ landed_messages('dts_avro', read_plan) }}
),

new_messages as (
    {{ unstaged_messages('landed', 'dts_avro', read_plan) }}
),

events as (
    {{ dts_avro__events('new_messages') }}
)

select
    {{ select_event_columns('events', derive_change_id=true, apply_configured_types=true) }}
from events
{%- endif %}
