{#-
    History-wide data tests that check only what arrived since they last passed.

    An accounting test reads every event of the warehouse, so on each `dbt build` of a
    continuous pipeline (`cdc-pipeline watch`) its cost grows with the history, not the batch.
    A test whose SQL filters its rows by `cdc_checked_window()` (the project's macros
    `checked_since` and `checked_read_plan`) checks, in a `dbt build`, only the rows of each
    source format landed after the marks through which it last passed:

    - The marks (per format, a landing time) are remembered per test, as table property
      `cdc.checked.<test>` of the test's first model (beside `cdc.passed.<test>`), with a
      digest of the test's code and the project's code version: changed code, other vars or
      an upgrade check everything again.
    - A test that passes records, per format, the least of the marks every table upstream of
      it had read through when it ran (`cdc.read_through`, and the landing table's
      `cdc.committed_through`): a mark never passes a row some upstream model has not
      processed yet, so a row is never left unchecked.
    - A test that fails or warns keeps its marks: the next build checks again every row since
      its last pass, so a failure does not go away by itself.
    - Everything is checked (the filter is `true`) under `dbt test`, `--full-refresh`,
      `--vars '{cdc_full_checks: true}'`, and for a format with no mark (the test never passed,
      or a user's own raw table that records no committed mark).
-#}

{%- macro cdc_checked_memory_key(node) -%}
    {{ return('cdc.checked.' ~ local_md5(node.unique_id)[:16]) }}
{%- endmacro -%}


{#- Whether `node` is a test that filters its rows by its checked marks: one that asked for
    them (cdc_checked_window) while it compiled in this invocation. -#}
{%- macro cdc_checks_since_last_pass(node) -%}
    {{ return(cdc_checked_upto_key(node) in adapter.cdc_invocation_notes(invocation_id)) }}
{%- endmacro -%}


{%- macro cdc_checked_upto_key(node) -%}
    {{ return('cdc.checked_upto:' ~ node.unique_id) }}
{%- endmacro -%}


{#- What a test's checked marks are valid for: its own code (a generic test's arguments
    too: other accepted values check every row again) and the project's code version. -#}
{%- macro cdc_checked_code_digest(node) -%}
    {%- set metadata = node.test_metadata if node.test_metadata is defined and node.test_metadata else none -%}
    {%- set arguments = tojson(metadata.kwargs, sort_keys=true) if metadata is not none else '' -%}
    {{ return(local_md5(node.raw_code ~ '|' ~ arguments ~ '|' ~ adapter.cdc_code_version())[:16]) }}
{%- endmacro -%}


{#- SQL condition: the row of `alias` (with `source_format` and `landed_at`) landed after its
    format's mark in `marks` ({format id: normalized timestamp text}); every row of a format
    without a mark, `true` without marks. One bound on landing time too when every enabled
    format has a mark: Parquet then skips the files of older batches unread. -#}
{%- macro cdc_rows_after_marks(alias, marks) -%}
    {%- if not marks -%}
        {{ return('true') }}
    {%- endif -%}
    {%- set conditions, quoted = [], [] -%}
    {%- for marked_format in marks | sort -%}
        {%- set literal = cdc_sql_string(marked_format) | trim -%}
        {%- do quoted.append(literal) -%}
        {%- do conditions.append('(' ~ alias ~ '.source_format = ' ~ literal ~ ' and ' ~ alias
                                 ~ ".landed_at > timestamp'" ~ marks[marked_format] ~ "')") -%}
    {%- endfor -%}
    {#- formats without a mark: every row -#}
    {%- do conditions.append('coalesce(' ~ alias ~ '.source_format not in (' ~ quoted | join(', ') ~ '), true)') -%}
    {%- set bound = " and " ~ alias ~ ".landed_at > timestamp'" ~ (marks.values() | min) ~ "'"
                    if var('cdc_formats', []) | reject('in', marks) | list | length == 0 else '' -%}
    {{ return('(' ~ conditions | join(' or ') ~ ')' ~ bound) }}
{%- endmacro -%}


{#- Whether this invocation may check only what is new (see the header). -#}
{%- macro cdc_checks_may_be_scoped() -%}
    {{ return(execute and flags.WHICH == 'build' and not flags.EMPTY and not should_full_refresh()
              and not var('cdc_full_checks', false)) }}
{%- endmacro -%}


{#- The marks through which test `node` last passed on this code ({format id: normalized
    timestamp text}; {} = check everything). -#}
{%- macro cdc_checked_marks(node) -%}
    {%- set home = cdc_test_home(node) if cdc_checks_may_be_scoped() else none -%}
    {%- if home is none -%}
        {{ return({}) }}
    {%- endif -%}
    {%- set memory = cdc_table_property(cdc_node_relation(home), cdc_checked_memory_key(node)) or '' -%}
    {%- set parts = memory.split('|', 1) -%}
    {%- if parts | length != 2 or parts[0] != cdc_checked_code_digest(node) -%}
        {{ return({}) }}
    {%- endif -%}
    {{ return(cdc_parse_read_through(parts[1])) }}
{%- endmacro -%}


{#- Per format, the least read-through mark of the tables upstream of `node` now (models'
    `cdc.read_through`, landing tables' `cdc.committed_through`): how far everything the test
    reads has processed. Views and tables without marks do not constrain; a format whose
    landing source records no committed mark (a user's own raw table, whose landing times
    need not grow) gets none, so it is always checked whole. -#}
{%- macro cdc_upstream_read_through(node) -%}
    {%- set marks = {} -%}
    {%- set unmarked = [] -%}
    {%- set pending = node.depends_on.nodes | list -%}
    {%- set seen = [] -%}
    {%- for _ in range(1000) if pending -%}
        {%- set unique_id = pending.pop() -%}
        {%- if unique_id not in seen -%}
            {%- do seen.append(unique_id) -%}
            {%- set parent = graph.nodes.get(unique_id) or graph.sources.get(unique_id) -%}
            {%- set found = {} -%}
            {%- if parent is not none and parent.resource_type == 'source' -%}
                {%- set committed = cdc_normal_timestamp(cdc_table_property(cdc_node_relation(parent), 'cdc.committed_through')) -%}
                {#- the project's landing sources are named `landing_<format id>` -#}
                {%- set format_id = parent.source_name[8:] if parent.source_name.startswith('landing_') else none -%}
                {%- if committed is not none and format_id -%}
                    {%- do found.update({format_id: committed}) -%}
                {%- elif format_id -%}
                    {%- do unmarked.append(format_id) -%}
                {%- endif -%}
            {%- elif parent is not none and parent.resource_type == 'model' -%}
                {%- if parent.config.materialized in ('table', 'incremental') -%}
                    {%- do found.update(cdc_read_through(cdc_node_relation(parent))) -%}
                {%- endif -%}
                {%- do pending.extend(parent.depends_on.nodes) -%}
            {%- endif -%}
            {%- for format_id, mark in found.items() -%}
                {%- if format_id not in marks or mark < marks[format_id] -%}
                    {%- do marks.update({format_id: mark}) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for format_id in unmarked -%}
        {%- do marks.pop(format_id, none) -%}
    {%- endfor -%}
    {{ return(marks) }}
{%- endmacro -%}


{#- For the test compiling now: note the marks it will have checked through if it passes
    (recorded at the invocation's end, cdc_checked_marks_updates), and return the marks it last
    passed through when this invocation may check only what is new ({}: everything). -#}
{%- macro cdc_checked_window() -%}
    {%- if not execute or flags.EMPTY or model.resource_type != 'test' -%}
        {{ return({}) }}
    {%- endif -%}
    {%- set notes = adapter.cdc_invocation_notes(invocation_id) -%}
    {%- if cdc_checked_upto_key(model) not in notes -%}
        {%- do notes.update({cdc_checked_upto_key(model): cdc_upstream_read_through(model)}) -%}
    {%- endif -%}
    {{ return(cdc_checked_marks(model)) }}
{%- endmacro -%}


{#- The new marks of every test that filters by its marks and passed, whether it checked what
    was new or everything (`dbt test`, full checks), as table properties added to
    `updates` (by relation; `kinds`: table or view) for cdc_remember_passed_tests (on-run-end);
    `properties` is the invocation's cache. -#}
{%- macro cdc_checked_marks_updates(results, properties, updates, kinds) -%}
    {%- if not execute or flags.EMPTY -%}
        {{ return('') }}
    {%- endif -%}
    {%- set notes = adapter.cdc_invocation_notes(invocation_id) -%}
    {%- for result in results
          if result.node.resource_type == 'test' and (result.status | string) == 'pass'
             and cdc_checks_since_last_pass(result.node) -%}
        {%- set upto = notes.get(cdc_checked_upto_key(result.node)) -%}
        {%- set home = cdc_test_home(result.node) -%}
        {%- if upto and home is not none -%}
            {%- do cdc_queue_test_memory(updates, kinds, home, cdc_checked_memory_key(result.node),
                                         cdc_checked_code_digest(result.node) ~ '|' ~ cdc_encode_read_through(upto),
                                         properties) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return('') }}
{%- endmacro -%}
