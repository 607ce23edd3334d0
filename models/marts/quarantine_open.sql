{{ config(materialized='view') }}

-- Quarantined messages still waiting for a fix: every `quarantine` row whose message has not
-- been landed again since by `cdc-pipeline requeue` (docs/quarantine.md). A requeued copy
-- lands with origin `requeue/<batch>/<first origin>` and the same partition and offset; if it
-- fails again, its own quarantine row is the open one.
with quarantined as (
    select
        *,
        regexp_replace(origin, '^requeue/[^/]+/', '') as first_origin
    from {{ ref('quarantine') }}
),

requeued as (
    select * from {{ ref('stg_landing__requeued_messages') }}
)

-- noqa: disable=LT02
-- (LT02 off: sqlfluff cannot place a Jinja loop's lines; see .sqlfluff)
select
    {%- for column in quarantine_columns() %}
    quarantined.{{ column }}{{ "," if not loop.last }}
    {%- endfor %}
-- noqa: enable=LT02
from quarantined
left anti join requeued
    on
        quarantined.raw_relation = requeued.raw_relation
        and quarantined.first_origin = requeued.first_origin
        and quarantined.origin_partition <=> requeued.origin_partition
        and quarantined.origin_offset = requeued.origin_offset
        and quarantined.landed_at < requeued.landed_at
