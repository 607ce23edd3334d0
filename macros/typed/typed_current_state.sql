{#
    Typed, per-table view of current_state: the live rows of one source table with one real
    column per source column, typed from `column_types` (docs/typed-tables.md).

    The columns are read from current_state when the model runs, so they follow schema
    changes at every `dbt run`: a column added at the source appears once a live row carries
    it; a column no live row carries any more (dropped at the source) is hidden; a row whose
    image lacks a column shows null. Each column takes the type of its latest change.
#}
{% macro typed_current_state(table_id, column_types={}) %}
    {%- set columns = typed_columns(table_id, column_types) -%}
    {%- set query = typed_select(table_id, columns) -%}
    {%- if columns and execute and not typed_select_plans(query) -%}
        {#- One odd table never stops a build: the view keeps its bookkeeping columns. -#}
        {%- do exceptions.warn(
            "typed model " ~ this.identifier ~ " of table " ~ tojson(table_id)
            ~ ": its source columns cannot be selected, so the view has only the bookkeeping columns "
            ~ "(_row_key, _last_operation, _committed_at, _sort_key, _uncastable_columns); "
            ~ "pin the column types with typed_current_state(table_id, column_types) (docs/typed-tables.md)") -%}
        {%- set query = typed_select(table_id, []) -%}
    {%- endif -%}
    {{ query }}
{% endmacro %}


{#
    The select of a typed view: source column names come from data, so they go in as string
    literals (cdc_sql_string) naming the fields of one struct, which `typed.*` expands into
    the view's columns; no name is ever pasted into SQL as an identifier. `columns` are
    typed_columns (name, alias, type); the alias is the name unless it repeats an earlier one
    without regard to case (Spark's column names are case-insensitive).
#}
{% macro typed_select(table_id, columns) %}
    select typed.*
    from (
        select named_struct(
            {%- for column in columns %}
            {{ cdc_sql_string(column.alias) }},
            {{ typed_value('state.row_image[' ~ cdc_sql_string(column.name) ~ ']', column.type) }},
            {%- endfor %}
            '_row_key', state.row_key,
            '_last_operation', state.last_operation,
            '_committed_at', state.committed_at,
            '_sort_key', state.sort_key,
            {#- Columns whose text did not convert to the declared type (their typed value is
                null): visible here, never silently lost. #}
            '_uncastable_columns', filter(array(
                {%- for column in columns %}
                if(state.row_image[{{ cdc_sql_string(column.name) }}] is not null
                   and {{ typed_value('state.row_image[' ~ cdc_sql_string(column.name) ~ ']', column.type) }} is null,
                   {{ cdc_sql_string(column.name) }}, null){{ ',' if not loop.last }}
                {%- endfor %}
                {%- if not columns %}cast(null as string){% endif %}
            ), name -> name is not null)
        ) as typed
        from {{ ref('current_state') }} as state
        where state.table_id = {{ cdc_sql_string(table_id) }}
            and not state.is_deleted
    ) as typed_rows
{% endmacro %}


{# Does Spark plan `query`? EXPLAIN reports an analysis error as text instead of failing. #}
{% macro typed_select_plans(query) %}
    {%- set plan = run_query('explain ' ~ query) -%}
    {%- set text = (plan.rows[0][0] if plan and plan.rows else '') | string -%}
    {{ return(not (text.startswith('Error occurred during query planning') or 'AnalysisException' in text)) }}
{% endmacro %}


{#
    The columns of a table's live rows: [{name, alias, type}], key columns first, then by
    name. The alias is the view's column name: the name itself, or `<name>__2`, `__3`, ... when
    it equals an earlier column or a bookkeeping column without regard to case.
    `column_types` (column -> Spark type) overrides `var('cdc_column_types')[table_id]`, which
    overrides what the messages say (so a type configured later applies at once here).
#}
{% macro typed_columns(table_id, column_types={}) %}
    {#- (a view about to be skipped as unchanged keeps its columns: no query needed) -#}
    {%- if not execute or cdc_inputs_unchanged() -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set state = adapter.get_relation(database=none, schema=ref('current_state').schema,
                                         identifier=ref('current_state').identifier) -%}
    {%- if state is none -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set query -%}
        with live as (
            select row_image, column_types, primary_key_columns, sort_key
            from {{ ref('current_state') }}
            where table_id = {{ cdc_sql_string(table_id) }} and not is_deleted
        ),

        present as (
            select column_name, sort_key, column_types[column_name] as column_type,
                   array_position(primary_key_columns, column_name) as key_position
            from live
            lateral view explode(map_keys(row_image)) as column_name
        )

        select
            column_name,
            max_by(column_type, sort_key) as column_type,
            min(nullif(key_position, 0)) as key_position
        from present
        group by column_name
        order by key_position asc nulls last, column_name
    {%- endset -%}
    {%- set configured = var('cdc_column_types', {}).get(table_id, {}) -%}
    {%- set columns = [] -%}
    {%- set taken = ['_row_key', '_last_operation', '_committed_at', '_sort_key', '_uncastable_columns'] -%}
    {%- for row in run_query(query) -%}
        {%- set alias = namespace(name=row[0]) -%}
        {%- if alias.name | lower in taken -%}
            {%- for n in range(2, 10000) if alias.name | lower in taken -%}
                {%- set alias.name = row[0] ~ '__' ~ n -%}
            {%- endfor -%}
        {%- endif -%}
        {%- do taken.append(alias.name | lower) -%}
        {%- do columns.append({
            'name': row[0],
            'alias': alias.name,
            'type': column_types.get(row[0], configured.get(row[0], row[1] or 'string')),
        }) -%}
    {%- endfor -%}
    {{ return(columns) }}
{% endmacro %}


{#
    Canonical text -> a Spark value of the column's type (typed_spark_type). Binary values are
    Base64 text; a value that does not convert is null (see _uncastable_columns).
#}
{% macro typed_value(expression, type) %}
    {%- set spark_type = typed_spark_type(type) -%}
    {%- if spark_type == 'binary' -%}
        try_to_binary({{ expression }}, 'base64')
    {%- elif spark_type == 'string' -%}
        {{ expression }}
    {%- else -%}
        try_cast({{ expression }} as {{ spark_type }})
    {%- endif -%}
{% endmacro %}


{#
    The Spark type for a `column_types` entry. Formats give Spark names (dataworks, debezium)
    or the source's own (Canal `mysqlType`: `int(11)`, `datetime(3)`, `decimal(10,2)`); both
    map here. What has no lossless Spark type stays string: time of day, bare `decimal`
    without precision, enum/set/json, unknown names.
#}
{% macro typed_spark_type(type) %}
    {%- set re = modules.re -%}
    {%- set name = (type or 'string') | lower | trim -%}
    {%- set unsigned = 'unsigned' in name -%}
    {%- set base = re.sub('\\s+(unsigned|signed|zerofill)\\b', '', name) | trim -%}
    {%- set decimal = re.match('^(decimal|numeric|number|dec)\\s*\\(\\s*(\\d+)\\s*(,\\s*(\\d+)\\s*)?\\)$', base) -%}
    {%- if decimal -%}
        {%- set precision = decimal.group(2) | int -%}
        {%- set scale = (decimal.group(4) or '0') | int -%}
        {{- return('decimal(' ~ precision ~ ',' ~ scale ~ ')' if precision <= 38 and scale <= precision else 'string') -}}
    {%- endif -%}
    {%- set word = re.sub('\\s*\\(.*\\)$', '', base) | trim -%}
    {%- if word in ('tinyint', 'smallint', 'mediumint', 'int', 'integer', 'int2', 'int4', 'short', 'byte') -%}
        {{- return('bigint' if unsigned and word in ('int', 'integer') else 'int') -}}
    {%- elif word in ('bigint', 'int8', 'long') -%}
        {{- return('decimal(20,0)' if unsigned else 'bigint') -}}
    {%- elif word in ('float', 'float4', 'real') -%}
        {{- return('float') -}}
    {%- elif word in ('double', 'double precision', 'float8') -%}
        {{- return('double') -}}
    {%- elif word in ('boolean', 'bool') -%}
        {{- return('boolean') -}}
    {%- elif word == 'date' -%}
        {{- return('date') -}}
    {%- elif word.startswith('timestamp') or word in ('datetime', 'datetime2', 'smalldatetime', 'datetimeoffset') -%}
        {{- return('timestamp') -}}
    {%- elif word in ('binary', 'varbinary', 'bytes', 'blob', 'tinyblob', 'mediumblob', 'longblob', 'bytea', 'raw') -%}
        {{- return('binary') -}}
    {%- else -%}
        {{- return('string') -}}
    {%- endif -%}
{% endmacro %}
