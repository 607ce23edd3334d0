-- Every reason code in quarantine is a documented one (seeds/cdc_quarantine_reasons.csv).
select
    quarantine.reason_code,
    count(*) as occurrences
from {{ ref('quarantine') }} as quarantine
left anti join {{ ref('cdc_quarantine_reasons') }} as reasons
    on quarantine.reason_code = reasons.reason_code
group by quarantine.reason_code
