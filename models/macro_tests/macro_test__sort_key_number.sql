{{ config(materialized='ephemeral', enabled=var('cdc_unit_tests', false) | as_bool) }}

-- Macro sort_key_number under test: each text's rank by its sort key (equal keys, equal
-- ranks). Only its dbt unit test reads it (_macro_tests__models.yml).
select
    texts.case_name,
    dense_rank() over (order by {{ sort_key_number('texts.value') }}) as sort_rank,
    length({{ sort_key_number('texts.value') }}) as key_length
from {{ source('macro_test_inputs', 'texts') }} as texts
