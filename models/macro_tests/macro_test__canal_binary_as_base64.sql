{{ config(materialized='ephemeral', enabled=var('cdc_unit_tests', false) | as_bool) }}

-- Macro canal__binary_as_base64 under test: Canal writes a binary column's bytes as
-- ISO-8859-1 text; its values become Base64 of those bytes, other columns stay as they are.
-- As JSON text: a unit test cannot compare maps. Only its dbt unit test reads it
-- (_macro_tests__models.yml).
select
    images.case_name,
    to_json({{ canal__binary_as_base64('images.image', 'images.binary_columns') }}) as image_json
from {{ source('macro_test_inputs', 'images') }} as images
