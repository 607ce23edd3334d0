{#-
    Column checks of one model in one Spark query.

    Every `not_null`, `unique` and `accepted_values` test of a model (dbt's own generic tests,
    with their default config, and the project's `unique_combination_of_columns`) is a query
    of its own, and on a small batch each costs a Spark job (about 0.13 s) for a handful of
    rows: most of a build's test time. So the first of them to run in an invocation counts the
    violations of all the model's selected ones in a single aggregate over the model:

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
    `limit`, other thresholds or `store_failures`, tests with more than one parent, singular
    and other generic tests always run their own SQL. `--vars '{cdc_checks_together: false}'`
    runs each test on its own.
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


{#- The aggregate that counts `node`'s violations (see the header). -#}
{%- macro cdc_check_violations_expression(node) -%}
    {%- set kwargs = node.test_metadata.kwargs -%}
    {%- set column = kwargs.column_name -%}
    {%- if node.test_metadata.name == 'not_null' -%}
        {{ return('count_if((' ~ column ~ ') is null)') }}
    {%- elif node.test_metadata.name == 'unique' -%}
        {{ return('count(' ~ column ~ ') - count(distinct ' ~ column ~ ')') }}
    {%- elif node.test_metadata.name == 'is_fixed_width_per_group' -%}
        {{ return('count(distinct struct(' ~ kwargs.group_by ~ ', length(' ~ column ~ '))) - count(distinct struct('
                  ~ kwargs.group_by ~ ')) + count_if((' ~ column ~ ') is null)') }}
    {%- elif node.test_metadata.name == 'unique_combination_of_columns' -%}
        {#- a struct is never null and groups nulls together, as the test's group by does -#}
        {{ return('count(*) - count(distinct struct(' ~ kwargs.combination_of_columns | join(', ') ~ '))') }}
    {%- else -%}
        {%- set literals = [] -%}
        {%- for value in kwargs['values'] -%}
            {%- do literals.append(cdc_sql_string(value) | trim if kwargs.get('quote', true) else value | string) -%}
        {%- endfor -%}
        {{ return('count_if((' ~ column ~ ') not in (' ~ literals | join(', ') ~ '))') }}
    {%- endif -%}
{%- endmacro -%}


{#- The violations of test `node` counted together with its model's other checks, or none
    when it is not eligible or the combined query failed (the test then runs its own SQL). -#}
{%- macro cdc_checked_together(node) -%}
    {%- if not var('cdc_checks_together', true) or not cdc_checks_together_eligible(node) -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set home = graph.nodes.get(node.depends_on.nodes[0]) -%}
    {%- if home is none or home.resource_type != 'model' -%}
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
        {%- set expressions = [] -%}
        {%- for test in tests -%}
            {%- do expressions.append(cdc_check_violations_expression(test) ~ ' as c' ~ loop.index0) -%}
        {%- endfor -%}
        {%- set query = 'select ' ~ expressions | join(', ') ~ ' from ' ~ relation -%}
        {%- do adapter.cdc_count_checks(relation | string, tests | map(attribute='unique_id') | list, query) -%}
    {%- endif -%}
    {{ return(counts[relation | string].get(node.unique_id)) }}
{%- endmacro -%}

