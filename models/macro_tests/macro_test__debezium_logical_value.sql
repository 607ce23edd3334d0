{{ config(materialized='ephemeral', enabled=var('cdc_unit_tests', false) | as_bool) }}

-- Macro debezium__logical_value under test: one Debezium value's text by its logical type
-- (dates, times of day, timestamps). Only its dbt unit test reads it (_macro_tests__models.yml).
with typed as (
    select
        typed_texts.case_name,
        typed_texts.value,
        named_struct('type', cast(null as string), 'name', typed_texts.type_name) as info
    from {{ source('macro_test_inputs', 'typed_texts') }} as typed_texts
)

select
    typed.case_name,
    {{ debezium__logical_value('typed.value', 'typed.info') }} as value_text
from typed
