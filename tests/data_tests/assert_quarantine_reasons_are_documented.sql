-- Every reason code in quarantine is a documented one (macros/quarantine/reason_codes.sql).
select
    quarantine.reason_code,
    count(*) as occurrences
from {{ ref('quarantine') }} as quarantine
where quarantine.reason_code not in (
    {%- for code in quarantine_reason_codes() %}
    '{{ code }}'{{ "," if not loop.last }}
    {%- endfor %}
)
group by quarantine.reason_code
