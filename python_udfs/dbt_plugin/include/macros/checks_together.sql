{#-
    Column checks of one model (or seed) in one Spark query.

    Every `not_null`, `unique` and `accepted_values` test of a model or a seed (dbt's own
    generic tests, with their default config, and the project's
    `unique_combination_of_columns`) is a query of its own, and on a small batch each costs a
    Spark job (about 0.13 s) for a handful of rows: most of a build's test time. So the first
    of them to run in an invocation counts the violations of all the model's (or seed's)
    selected ones in a single aggregate over it:

        not_null         count_if(col is null)
        accepted_values  count_if(col not in (values))      (nulls pass, as in dbt's test)
        unique           count(col) - count(distinct col)  (nulls ignored, as in dbt's test)
        unique_combination_of_columns (the project's own, tests/data_tests/generic/)
                         count(*) - count(distinct struct(cols))
        is_fixed_width_per_group (the project's own)
                         count(distinct struct(groups, length(col)))
                           - count(distinct struct(groups)) + count_if(col is null)
                         (0 when every group has one width and no null; not the number
                         of failing groups, which the test's own SQL then gives)

    A test whose count is 0 passes from that answer (adapter response code
    `cdc_checked_together`, visible in run_results.json). A test with violations runs its own
    SQL, so its failure count and stored failures are exactly dbt's. Tests with a `where`,
    `limit`, other thresholds or `store_failures`, tests with more than one parent, tests of
    an ephemeral model, singular and other generic tests always run their own SQL.
    `--vars '{cdc_checks_together: false}'` runs each test on its own.

    On a model whose rows are only ever appended (config `meta: {cdc_rows_only_appended:
    true}`: the staging models, change_log, quarantine, schema_changes), a `dbt build` counts
    only what each check has not checked yet, as the accounting tests do (checked_since.sql):
    the rows landed after the marks through which it last passed. not_null and
    accepted_values count those rows; unique (and unique_combination_of_columns) counts the
    keys of those rows that occur more than once in the whole model, from a join of their few
    keys with the model's keys, not a distinct count of every key; is_fixed_width_per_group
    compares those rows' widths with one width per group of the rows checked before. Those
    two joins are extra queries: they run only on a model whose tables hold at least
    `cdc_scoped_key_checks_min_bytes` (64 MiB; below it, counting every key in the one query
    costs less), else uniqueness and widths are counted over every row as before. When every
    check of the model has marks and needs no full count, the query reads only the rows after
    the least of them. `dbt test`, `--full-refresh` and `cdc_full_checks` count every row; a
    check that counts a violation runs its own SQL over every row.

    On a view over a layered state model (config `meta: {cdc_state_layers_model: <layers
    model>}`: current_state, row_history) whose selected checks all decide each (table_id,
    row_key)'s rows on their own (not_null, accepted_values, uniqueness over columns that
    include table_id and row_key), a `dbt build` counts the rows of the layers model's delta
    layer instead of the view's, once every check has marks for every enabled format and the
    base layer was written by a run that read no further than the least of them (macro
    state_base_layer_written_by): every row the view shows that changed since is then a
    delta-layer row. Otherwise every row of the view.
-#}

{#- Whether `node` (a node dict: the graph's, or a materialization's `model`, which leaves out
    unset keys) is a test that can be counted with its model's other column checks. -#}
{%- macro cdc_checks_together_eligible(node) -%}
    {%- set meta = node.get('test_metadata') or {} -%}
    {%- if meta.get('namespace') is not none
          or meta.get('name') not in ['not_null', 'unique', 'accepted_values', 'unique_combination_of_columns',
                                      'is_fixed_width_per_group']
          or (meta.get('kwargs', {}).get('column_name') is none
              and not meta.get('kwargs', {}).get('combination_of_columns'))
          or node.depends_on.nodes | length != 1 -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set config = node.get('config') or {} -%}
    {{ return(config.get('where') is none and config.get('limit') is none
              and (config.get('fail_calc') or 'count(*)') | trim == 'count(*)'
              and (config.get('warn_if') or '!= 0') | replace(' ', '') == '!=0'
              and (config.get('error_if') or '!= 0') | replace(' ', '') == '!=0'
              and not config.get('store_failures')) }}
{%- endmacro -%}


{#- The aggregate that counts `node`'s violations in `relation` (aliased `checked_rows`);
    with `marks`, those of the rows landed after them (see the header). -#}
{%- macro cdc_check_violations_expression(node, relation=none, marks={}) -%}
    {%- set kwargs = node.test_metadata.kwargs -%}
    {%- set column = kwargs.column_name -%}
    {%- set name = node.test_metadata.name -%}
    {%- set fresh = cdc_rows_after_marks('fresh', marks) -%}
    {%- set scope = cdc_rows_after_marks('checked_rows', marks) ~ ' and ' if marks else '' -%}
    {%- if name in ('unique', 'unique_combination_of_columns') and marks -%}
        {%- set key = column if name == 'unique' else 'struct(' ~ kwargs.combination_of_columns | join(', ') ~ ')' -%}
        {#- keys of the new rows that occur more than once in the whole model (nulls ignored by
            unique, as in dbt's test; a struct is never null) -#}
        {#- (the hint: Spark sizes the new rows as the whole model and would shuffle every key) -#}
        {{ return('(select count(*) from (select /*+ broadcast(fresh_keys) */ every_key.checked_key from (select (' ~ key ~ ') as checked_key from '
                  ~ relation ~ ') as every_key inner join (select distinct (' ~ key ~ ') as checked_key from '
                  ~ relation ~ ' as fresh where ' ~ fresh ~ ') as fresh_keys on every_key.checked_key = fresh_keys.checked_key'
                  ~ ' group by every_key.checked_key having count(*) > 1) as repeated_keys)') }}
    {%- elif name == 'is_fixed_width_per_group' and marks -%}
        {#- the new rows' widths and one width per group of the rows checked before (they
            passed: one width each); nulls among the new rows -#}
        {{ return('(select count(distinct struct(widths.group_key, widths.width)) - count(distinct widths.group_key)'
                  ~ ' + coalesce(sum(widths.nulls), 0) from (select struct(' ~ kwargs.group_by ~ ') as group_key, length('
                  ~ column ~ ') as width, cast((' ~ column ~ ') is null as int) as nulls from ' ~ relation
                  ~ ' as fresh where ' ~ fresh ~ ' union all select struct(' ~ kwargs.group_by ~ '), max(length('
                  ~ column ~ ')), 0 from ' ~ relation ~ ' as fresh where not (' ~ fresh ~ ') group by struct('
                  ~ kwargs.group_by ~ ')) as widths)') }}
    {%- elif name == 'not_null' -%}
        {{ return('count_if(' ~ scope ~ '(' ~ column ~ ') is null)') }}
    {%- elif name == 'unique' -%}
        {{ return('count(' ~ column ~ ') - count(distinct ' ~ column ~ ')') }}
    {%- elif name == 'is_fixed_width_per_group' -%}
        {{ return('count(distinct struct(' ~ kwargs.group_by ~ ', length(' ~ column ~ '))) - count(distinct struct('
                  ~ kwargs.group_by ~ ')) + count_if((' ~ column ~ ') is null)') }}
    {%- elif name == 'unique_combination_of_columns' -%}
        {#- a struct is never null and groups nulls together, as the test's group by does -#}
        {{ return('count(*) - count(distinct struct(' ~ kwargs.combination_of_columns | join(', ') ~ '))') }}
    {%- else -%}
        {%- set literals = [] -%}
        {%- for value in kwargs['values'] -%}
            {%- do literals.append(cdc_sql_string(value) | trim if kwargs.get('quote', true) else value | string) -%}
        {%- endfor -%}
        {{ return('count_if(' ~ scope ~ '(' ~ column ~ ') not in (' ~ literals | join(', ') ~ '))') }}
    {%- endif -%}
{%- endmacro -%}


{#- Bytes of the tables `node` (a model) holds or, for a view or an ephemeral model, reads
    through (adapter.cdc_stored_bytes); none when one of them is unknown. -#}
{%- macro cdc_model_stored_bytes(node) -%}
    {%- set total = namespace(bytes=0, known=true) -%}
    {%- set pending = [node.unique_id] -%}
    {%- set seen = [] -%}
    {%- for _ in range(1000) if pending and total.known -%}
        {%- set unique_id = pending.pop() -%}
        {%- set current = graph.nodes.get(unique_id) -%}
        {%- if unique_id not in seen and current is not none and current.resource_type == 'model' -%}
            {%- do seen.append(unique_id) -%}
            {%- if current.config.materialized in ('view', 'ephemeral') -%}
                {%- do pending.extend(current.depends_on.nodes) -%}
            {%- else -%}
                {%- set stored = adapter.cdc_stored_bytes(cdc_node_relation(current)) -%}
                {%- if stored is none -%}
                    {%- set total.known = false -%}
                {%- else -%}
                    {%- set total.bytes = total.bytes + stored -%}
                {%- endif -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(total.bytes if total.known else none) }}
{%- endmacro -%}


{#- The layered state model (a graph node) a state view's meta `cdc_state_layers_model` names,
    or none. -#}
{%- macro cdc_state_layers_node(meta) -%}
    {%- set name = meta.get('cdc_state_layers_model') -%}
    {%- for candidate in graph.nodes.values()
          if name and candidate.resource_type == 'model' and candidate.name == name -%}
        {{ return(candidate) }}
    {%- endfor -%}
    {{ return(none) }}
{%- endmacro -%}


{#- Whether every test of `tests` decides each (table_id, row_key)'s rows on their own: not_null
    and accepted_values, and uniqueness over columns that include table_id and row_key. -#}
{%- macro cdc_checks_are_per_key(tests) -%}
    {%- for test in tests -%}
        {%- set name = test.test_metadata.name -%}
        {%- set columns = test.test_metadata.kwargs.get('combination_of_columns') or [] -%}
        {%- if not (name in ('not_null', 'accepted_values')
                    or (name == 'unique_combination_of_columns' and 'table_id' in columns and 'row_key' in columns)) -%}
            {{ return(false) }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(tests | length > 0) }}
{%- endmacro -%}


{#- The violations of test `node` counted together with its model's other checks, or none
    when it is not eligible or the combined query failed (the test then runs its own SQL). -#}
{%- macro cdc_checked_together(node) -%}
    {%- if not var('cdc_checks_together', true) or not cdc_checks_together_eligible(node) -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set home = graph.nodes.get(node.depends_on.nodes[0]) -%}
    {%- if home is none or home.resource_type not in ('model', 'seed')
          or home.config.materialized == 'ephemeral' -%}
        {#- (an ephemeral model has no relation to count in: its tests run their own SQL) -#}
        {{ return(none) }}
    {%- endif -%}
    {%- set relation = cdc_node_relation(home) -%}
    {%- set counts = adapter.cdc_checks_cache(invocation_id) -%}
    {%- if (relation | string) not in counts -%}
        {%- set selected = selected_resources if selected_resources else [] -%}
        {%- set tests = [] -%}
        {%- for other in graph.nodes.values()
              if other.resource_type == 'test' and other.depends_on.nodes == node.depends_on.nodes
                 and (other.unique_id in selected or other.unique_id == node.unique_id)
                 and cdc_checks_together_eligible(other) -%}
            {%- do tests.append(other) -%}
        {%- endfor -%}
        {%- set meta = home.config.meta or {} -%}
        {%- set appended = meta.get('cdc_rows_only_appended', false) -%}
        {#- a view over a layered state model whose checks are all per key (see the header) -#}
        {%- set layers = cdc_state_layers_node(meta) if not appended and cdc_checks_are_per_key(tests) else none -%}
        {#- a model whose rows are only appended: each check counts the rows after its marks -#}
        {%- set scoped = cdc_checks_may_be_scoped() and (appended or layers is not none) -%}
        {#- and large enough that joining the new keys costs less than counting every key -#}
        {%- set stored = cdc_model_stored_bytes(home) if scoped and appended else none -%}
        {%- set join_new_keys = stored is not none and stored >= var('cdc_scoped_key_checks_min_bytes', 67108864) -%}
        {%- set notes = adapter.cdc_invocation_notes(invocation_id) -%}
        {%- set expressions, least = [], {} -%}
        {%- set every_check_marked = namespace(value=scoped) -%}
        {%- for test in tests -%}
            {%- set marks = {} -%}
            {%- if scoped -%}
                {#- what it will have checked through if it passes (recorded at the end) -#}
                {%- if cdc_checked_upto_key(test) not in notes -%}
                    {%- do notes.update({cdc_checked_upto_key(test): cdc_upstream_read_through(test)}) -%}
                {%- endif -%}
                {%- set marks = cdc_checked_marks(test) -%}
                {%- if appended and not join_new_keys and test.test_metadata.name in
                      ['unique', 'unique_combination_of_columns', 'is_fixed_width_per_group'] -%}
                    {#- a small model: counted over every row (which checks the new rows too) -#}
                    {%- set marks = {} -%}
                {%- endif -%}
            {%- endif -%}
            {%- if not marks or var('cdc_formats', []) | reject('in', marks) | list | length > 0 -%}
                {%- set every_check_marked.value = false -%}
            {%- endif -%}
            {%- for format_id, mark in marks.items() if format_id not in least or mark < least[format_id] -%}
                {%- do least.update({format_id: mark}) -%}
            {%- endfor -%}
            {#- (a state view's rows are counted whole, from the rows chosen below) -#}
            {%- do expressions.append(cdc_check_violations_expression(test, relation, {} if layers is not none else marks)
                                      ~ ' as c' ~ loop.index0) -%}
        {%- endfor -%}
        {%- set checked = relation -%}
        {%- set filter = '' -%}
        {%- if layers is not none -%}
            {#- every check marked, and the base layer written before the least marks: the rows
                of the delta layer (every row the view shows that changed since) -#}
            {%- if every_check_marked.value and state_base_layer_written_by(cdc_node_relation(layers), least) -%}
                {%- set checked = '(select * from ' ~ cdc_node_relation(layers)
                                  ~ " where state_layer = 'delta' and table_id is not null)" -%}
            {%- endif -%}
        {%- elif every_check_marked.value -%}
            {#- every check marked (for every enabled format): only the rows after the least marks -#}
            {%- set filter = ' where ' ~ cdc_rows_after_marks('checked_rows', least) -%}
        {%- endif -%}
        {%- set query = 'select ' ~ expressions | join(', ') ~ ' from ' ~ checked ~ ' as checked_rows' ~ filter -%}
        {%- do adapter.cdc_count_checks(relation | string, tests | map(attribute='unique_id') | list, query) -%}
    {%- endif -%}
    {{ return(counts[relation | string].get(node.unique_id)) }}
{%- endmacro -%}

