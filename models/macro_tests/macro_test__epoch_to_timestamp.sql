{{ config(materialized='ephemeral', enabled=var('cdc_unit_tests', false) | as_bool) }}

-- Macro epoch_to_timestamp under test: a vendor's epoch number as a UTC timestamp, its unit
-- named or guessed from its size. Only its dbt unit test reads it (_macro_tests__models.yml).
select
    texts.case_name,
    {{ epoch_to_timestamp('texts.value', 'auto') }} as auto_unit_at,
    {{ epoch_to_timestamp('texts.value', 'ms') }} as milliseconds_at
from {{ source('macro_test_inputs', 'texts') }} as texts
