{#- The spark_cdc adapter uses dbt-spark's macros through the plugin dependency; it overrides
    only what recovery from an interrupted run needs. -#}

{%- macro spark_cdc__create_table_as(temporary, relation, compiled_code, language='sql') -%}
  {#- A run killed during CREATE TABLE AS leaves data files without a table; clear them so the
      rerun can create it (see SparkCdcAdapter.clear_orphaned_table_location). -#}
  {%- if execute and not temporary and language == 'sql' -%}
    {%- do adapter.clear_orphaned_table_location(relation) -%}
  {%- endif -%}
  {{ spark__create_table_as(temporary, relation, compiled_code, language) }}
{%- endmacro -%}
