{#- Seeds (the project's vocabularies) versioned by their file's checksum.

    A seed table records the checksum of the CSV it was loaded from (table property
    `cdc.version`). Then:
    * `dbt seed` / `dbt build` leave a seed whose file did not change as it is (dbt's own seed
      materialization drops and reloads every seed in every build);
    * the models that read a seed can be skipped as unchanged (skip_unchanged.sql versions a
      seed parent by that checksum);
    * `cdc_ensure_seeds()`, an on-run-start hook, loads every seed that is missing or older
      than its file, so a plain `dbt run` on a new warehouse works without `dbt seed`. -#}


{#- The seed materialization: nothing when the table already holds this version of the file,
    else the table created and filled from the CSV (cdc_load_seed) and versioned. Unlike
    dbt's own it runs no pre- or post-hooks, grants or persist_docs: the project configures
    none for seeds (extend it here if a deployment needs them). -#}
{%- materialization seed, adapter='spark_cdc' -%}
  {%- set version = model.checksum.checksum -%}
  {#- dbt's seed task reads the file's rows from this result (`dbt seed --show`) -#}
  {%- set agate_table = load_agate_table() -%}
  {%- do store_result('agate_table', response='OK', agate_table=agate_table) -%}
  {%- set existing = load_relation(this) -%}
  {%- if existing is not none and existing.is_table and not should_full_refresh()
        and cdc_table_property(this, 'cdc.version') == version -%}
    {%- do store_result('main', response='SKIP seed up to date') -%}
    {{ return({'relations': [this]}) }}
  {%- endif -%}
  {%- do cdc_load_seed(model, this) -%}
  {%- call noop_statement('main', 'INSERT ' ~ agate_table.rows | length, 'INSERT', agate_table.rows | length) -%}
    -- {{ this }} loaded from {{ model.original_file_path }}
  {%- endcall -%}
  {{ return({'relations': [this.incorporate(type='table')]}) }}
{%- endmaterialization -%}


{#- on-run-start: load every enabled seed whose table is missing or older than its file. -#}
{%- macro cdc_ensure_seeds() -%}
  {%- if not execute -%}
    {{ return('') }}
  {%- endif -%}
  {%- for node in graph.nodes.values() if node.resource_type == 'seed' -%}
    {%- set relation = cdc_node_relation(node) -%}
    {%- if load_relation(relation) is none
          or cdc_table_properties(relation, cdc_run_properties()).get('cdc.version') != node.checksum.checksum -%}
      {%- do cdc_load_seed(node, relation) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return('') }}
{%- endmacro -%}


{#- (Re)create `relation`, the table of seed `node`, from its CSV file: every column as its
    `column_types` entry says (text by default), the values as escaped literals, then the
    file's checksum as the table's version. -#}
{%- macro cdc_load_seed(node, relation) -%}
  {%- set rows = adapter.cdc_read_seed_rows(node.root_path ~ '/' ~ node.original_file_path) -%}
  {%- set header = rows[0] -%}
  {%- set types = node.config.get('column_types') or {} -%}
  {%- do adapter.create_schema(relation.without_identifier()) -%}
  {%- do run_query('drop table if exists ' ~ relation) -%}
  {%- call statement('cdc_create_seed') -%}
    create table {{ relation }} (
      {%- for name in header %}
      {{ cdc_seed_identifier(name) }} {{ types.get(name, 'string') }}{{ ',' if not loop.last }}
      {%- endfor %}
    ) using parquet
  {%- endcall -%}
  {%- if rows | length > 1 -%}
    {%- call statement('cdc_fill_seed') -%}
      insert into {{ relation }} values
      {%- for row in rows[1:] %}
      ({% for name in header %}cast({{ cdc_seed_literal(row[loop.index0] if loop.index0 < row | length else '') }} as {{ types.get(name, 'string') }}){{ ', ' if not loop.last }}{% endfor %}){{ ',' if not loop.last }}
      {%- endfor %}
    {%- endcall -%}
  {%- endif -%}
  {%- do cdc_set_table_properties(relation, {'cdc.version': node.checksum.checksum}) -%}
  {%- do cdc_forget_properties(relation) -%}
  {#- in dbt's relation cache too: else the seed's own node, later in the same invocation,
      finds no table and loads the file a second time -#}
  {%- do adapter.cache_added(relation.incorporate(type='table')) -%}
{%- endmacro -%}


{#- A CSV value as a Spark SQL literal: an empty field is null, anything else escaped text
    (`$` as `\u0024`: Spark substitutes `${...}` variables even inside string literals). -#}
{%- macro cdc_seed_literal(value) -%}
  {%- if value == '' -%}
    null
  {%- else -%}
    '{{ value | replace('\\', '\\\\') | replace("'", "\\'") | replace('$', '\\u0024') }}'
  {%- endif -%}
{%- endmacro -%}


{#- A CSV header name as a quoted Spark identifier. -#}
{%- macro cdc_seed_identifier(name) -%}
  `{{ name | replace('`', '``') }}`
{%- endmacro -%}
