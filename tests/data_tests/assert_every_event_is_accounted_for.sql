-- Accounting: every staging event of every enabled format ends where its class says
-- (docs/quarantine.md). Returns the events that are nowhere:
--   change                   -> its change_id is in change_log (a redelivered copy shares it),
--                               or it is the old-row half of an update pair (update_pairs_model);
--                               looked up in the change log's checked window first, and in
--                               all of it only for the ids not found there
--   update_half              -> its pair is in int_update_halves_paired (looked up the same
--                               way), or it is held in unpaired_update_halves
--   schema_change / truncate -> schema_changes (a redelivered copy shares the id)
--   transaction / heartbeat  -> counted in stream_progress (nothing to look up)
--   invalid                  -> quarantine, or (`missing_key`) keyed by its table's previously
--                               seen key in int_rekeyed_changes
-- In a `dbt build`, only the events landed since the test last passed (checked_since): an
-- event once accounted for stays so (change_log, quarantine and schema_changes keep their
-- rows; a held update half is paired later or stays held). On a large history the lookups
-- start in the same window (macro checked_lookups_in_window).
{%- set in_window = checked_lookups_in_window() %}
with events as (
    select
        {{ change_id() }} as expected_change_id,
        {{ schema_change_id() }} as expected_schema_change_id,
        unioned.*
    from {{ ref('int_events_unioned') }} as unioned
    where {{ checked_since('unioned') }}
),

-- The change ids logged in the checked window (an event's own copy, or a copy of the same
-- run, landed with it there) and the old-row halves of update pairs; on a small history,
-- every change id logged.
window_logged as (
    select logged.change_id
    from {{ ref('change_log') }} as logged
    where {{ checked_since('logged') if in_window else 'true' }}
    {%- for format_id in cdc_enabled_formats() if cdc_format(format_id).get('update_pairs_model') %}
        union all
        select pairs.old_row_change_id from {{ ref(cdc_format(format_id)['update_pairs_model']) }} as pairs
    {%- endfor %}
),

{%- if in_window %}

-- Checked changes not found there: a copy redelivered after the copy kept, which an earlier
-- run logged (or a change that is nowhere). Only their ids are looked up in the whole change
-- log, so a batch with none reads no history.
unresolved_changes as (
    select distinct events.expected_change_id as change_id
    from events
    left anti join window_logged
        on events.expected_change_id = window_logged.change_id
    where events.event_class = 'change'
),

earlier_logged as (
    select /*+ broadcast(unresolved_changes) */ logged.change_id
    from {{ ref('change_log') }} as logged
    inner join unresolved_changes
        on logged.change_id = unresolved_changes.change_id
),

{%- endif %}

logged_changes as (
    select distinct change_id from window_logged
    {%- if in_window %}
    union
    select change_id from earlier_logged
    {%- endif %}
),

-- The same for update halves: the groups paired in the window (a pair lands with its later
-- half), and in all pairs only the groups not found there (every group, on a small history).
window_paired as (
    select
        pairs.source_format,
        pairs.table_id,
        pairs.pairing_key
    from {{ ref('int_update_halves_paired') }} as pairs
    where {{ checked_since('pairs') if in_window else 'true' }}
),

{%- if in_window %}

unresolved_groups as (
    select distinct
        events.source_format,
        events.table_id,
        events.pairing_key
    from events
    left anti join window_paired
        on
            events.source_format = window_paired.source_format
            and events.table_id = window_paired.table_id
            and events.pairing_key = window_paired.pairing_key
    where events.event_class = 'update_half'
),

earlier_paired as (
    select /*+ broadcast(unresolved_groups) */
        pairs.source_format,
        pairs.table_id,
        pairs.pairing_key
    from {{ ref('int_update_halves_paired') }} as pairs
    inner join unresolved_groups
        on
            pairs.source_format = unresolved_groups.source_format
            and pairs.table_id = unresolved_groups.table_id
            and pairs.pairing_key = unresolved_groups.pairing_key
),

{%- endif %}

paired_groups as (
    select distinct * from window_paired
    {%- if in_window %}
    union
    select * from earlier_paired
    {%- endif %}
),

-- Held halves (on a large history only of the groups not paired in the window: the view
-- regroups every half, so a batch whose halves all paired reads none of it).
held_halves as (
    select {{ '/*+ broadcast(unresolved_groups) */' if in_window }} held.event_id
    from {{ ref('unpaired_update_halves') }} as held
    {%- if in_window %}
    -- (an inner join on the distinct groups, not a semi join: see int_redelivered_changes)
    inner join unresolved_groups
        on
            held.source_format = unresolved_groups.source_format
            and held.table_id = unresolved_groups.table_id
            and held.pairing_key = unresolved_groups.pairing_key
    {%- endif %}
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
