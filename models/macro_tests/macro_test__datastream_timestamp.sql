{{ config(materialized='ephemeral', enabled=var('cdc_unit_tests', false) | as_bool) }}

-- Macro datastream__timestamp under test: a Datastream timestamp (a VARIANT holding ISO text
-- or an epoch number) as a UTC timestamp. Only its dbt unit test reads it
-- (_macro_tests__models.yml); each text is the JSON of one value.
select
    texts.case_name,
    {{ datastream__timestamp('try_parse_json(texts.value)') }} as read_at
from {{ source('macro_test_inputs', 'texts') }} as texts
