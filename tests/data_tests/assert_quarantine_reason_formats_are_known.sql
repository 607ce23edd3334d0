-- Each quarantine reason names the formats it applies to as `all` or known format ids
-- (macros/formats/_registry.sql): a misspelt id would hide a code from that format's docs.
{%- set known = ["'all'"] %}
{%- for format_id in cdc_format_registry() %}
    {%- do known.append(cdc_sql_string(format_id)) %}
{%- endfor %}
select
    reasons.reason_code,
    listed.format_id
from {{ ref('cdc_quarantine_reasons') }} as reasons
    lateral view explode(split(reasons.formats, ' ')) listed as format_id
where listed.format_id not in ({{ known | join(', ') }})
