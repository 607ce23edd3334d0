-- Accounting: every staging event of every enabled format ends where its class says
-- (docs/quarantine.md). Returns the events that are nowhere:
--   change                   -> its change_id is in change_log (a redelivered copy shares it),
--                               or it is the old-row half of an update pair (update_pairs_model)
--   update_half              -> its pair is in int_update_halves_paired, or it is held in
--                               unpaired_update_halves
--   schema_change / truncate -> schema_changes (a redelivered copy shares the id)
--   transaction / heartbeat  -> counted in stream_progress (nothing to look up)
--   invalid                  -> quarantine, or (`missing_key`) keyed by its table's previously
--                               seen key in int_rekeyed_changes
-- In a `dbt build`, only the events landed since the test last passed (checked_since): an
-- event once accounted for stays so (change_log, quarantine and schema_changes keep their
-- rows; a held update half is paired later or stays held).
with events as (
    select
        {{ change_id() }} as expected_change_id,
        {{ schema_change_id() }} as expected_schema_change_id,
        unioned.*
    from {{ ref('int_events_unioned') }} as unioned
    where {{ checked_since('unioned') }}
),

logged_changes as (
    select distinct change_id from {{ ref('change_log') }}
    {%- for format_id in cdc_enabled_formats() if cdc_format(format_id).get('update_pairs_model') %}
        union
        select pairs.old_row_change_id from {{ ref(cdc_format(format_id)['update_pairs_model']) }} as pairs
    {%- endfor %}
),

paired_groups as (
    select distinct
        source_format,
        table_id,
        pairing_key
    from {{ ref('int_update_halves_paired') }}
),

held_halves as (
    select event_id from {{ ref('unpaired_update_halves') }}
),

logged_ddl as (
    select schema_change_id from {{ ref('schema_changes') }}
),

quarantined as (
    select quarantine_id from {{ ref('quarantine') }}
),

rekeyed as (
    select event_id from {{ ref('int_rekeyed_changes') }}
)

select
    events.source_format,
    events.event_id,
    events.event_class,
    events.message_id
from events
left join logged_changes
    on events.expected_change_id = logged_changes.change_id
left join paired_groups
    on
        events.source_format = paired_groups.source_format
        and events.table_id = paired_groups.table_id
        and events.pairing_key = paired_groups.pairing_key
left join held_halves
    on events.event_id = held_halves.event_id
left join logged_ddl
    on events.expected_schema_change_id = logged_ddl.schema_change_id
left join quarantined
    on events.event_id = quarantined.quarantine_id
left join rekeyed
    on events.event_id = rekeyed.event_id
where not case
    when events.event_class = 'change' then logged_changes.change_id is not null
    when events.event_class = 'update_half'
        then paired_groups.pairing_key is not null or held_halves.event_id is not null
    when events.event_class in ('schema_change', 'truncate') then logged_ddl.schema_change_id is not null
    when events.event_class in ('transaction', 'heartbeat') then true
    when events.event_class = 'invalid'
        then quarantined.quarantine_id is not null or rekeyed.event_id is not null
    else false
end
