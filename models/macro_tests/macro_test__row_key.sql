{{ config(materialized='ephemeral', enabled=var('cdc_unit_tests', false) | as_bool) }}

-- Macros row_key, effective_key_columns and row_key_kind under test: a row's key from the
-- declared key columns, else a row id in the image, else a hash of the whole row. Only its
-- dbt unit test reads it (_macro_tests__models.yml).
select
    images.case_name,
    {{ effective_key_columns('images.declared_keys', 'images.image') }} as key_columns,
    -- row_key and row_key_kind take the key columns as a column (the lateral alias above)
    {{ row_key('key_columns', 'images.image') }} as row_key,
    {{ row_key_kind('images.declared_keys', 'key_columns') }} as row_key_kind
from {{ source('macro_test_inputs', 'images') }} as images
