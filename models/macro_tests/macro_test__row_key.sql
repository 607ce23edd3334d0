{{ config(materialized='ephemeral', enabled=var('cdc_unit_tests', false) | as_bool) }}

-- Macro row_key_columns under test (the staging models' key step, built on row_key,
-- effective_key_columns and row_key_kind): a row's key from the declared key columns, else a
-- row id in the image, else a hash of the whole row. Only its dbt unit test reads it
-- (_macro_tests__models.yml).
select
    images.case_name,
    {{ row_key_columns('images.declared_keys', 'images.image') }}
from {{ source('macro_test_inputs', 'images') }} as images
