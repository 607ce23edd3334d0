{#
    A data test's filter to the rows it has not checked yet: in a `dbt build`, those of each
    format landed after the marks through which the test last passed; `true` when everything
    is checked (`dbt test`, `--full-refresh`, `cdc_full_checks`, a test that never passed, a
    format with no mark). How the marks are kept: the adapter's checked_since.sql
    (python_udfs/dbt_plugin/include/macros/). Only for rows whose check does not depend on
    rows landed before them, in the same relation or another (docs/operations.md).
#}
{% macro checked_since(alias, format_id=none) -%}
    {%- set marks = cdc_checked_window() -%}
    {%- if format_id is not none -%}
        {{- alias ~ ".landed_at > timestamp'" ~ marks[format_id] ~ "'" if format_id in marks else 'true' -}}
    {%- else -%}
        {{- cdc_rows_after_marks(alias, marks) -}}
    {%- endif -%}
{%- endmacro %}


{#
    committed_read_plan (every committed message of a format) less the messages landed at or
    before the test's checked mark (checked_since): what a test reading landing tables checks.
#}
{% macro checked_read_plan(format_id) %}
    {%- set plan = committed_read_plan(format_id) -%}
    {%- set marks = cdc_checked_window() -%}
    {%- if format_id in marks -%}
        {%- do plan.update({'mark': "timestamp'" ~ marks[format_id] ~ "'", 'strict': true}) -%}
    {%- endif -%}
    {{ return(plan) }}
{% endmacro %}


{#
    The keys a state test has not checked yet, as a query of (table_id, row_key), or none when
    it must check every key. In a `dbt build`, a key's rows in the state models change only
    when a change to it lands (its key or, for a key change, its old key) or when the run
    rewrites it into the delta layer of a layered state model (a truncate or dropped table
    rewrites every key of its table there). So the keys to check are those of the changes
    landed after the test's marks (checked_since) and every key the delta layers hold now.
    A compaction rewrites the base layer: when one wrote it after the marks (table property
    `cdc.base_through`, macro record_base_layer_marks), or under `dbt test`, full checks and
    the other cases where checked_since is `true`, every key is checked.
#}
{% macro state_checked_keys(layer_models) %}
    {#- the relations first: their refs make them the test's parents when dbt parses it -#}
    {%- set changes = ref('change_log') -%}
    {%- set layers = [] -%}
    {%- for name in layer_models -%}
        {%- do layers.append(ref(name)) -%}
    {%- endfor -%}
    {%- set marks = cdc_checked_window() -%}
    {%- if not marks -%}
        {{ return(none) }}
    {%- endif -%}
    {%- for layer in layers if not state_base_layer_written_by(layer, marks) -%}
        {{ return(none) }}
    {%- endfor -%}
    {#- the changed keys and old keys from one read of the change log (touched_keys_view) -#}
    {%- set queries = [
        'select changes.table_id, touched_key.row_key from ' ~ changes ~ ' as changes '
        ~ touched_keys_view('changes') | replace('\n', ' ')
        ~ ' where touched_key.row_key is not null and ' ~ checked_since('changes')] -%}
    {%- for layer in layers -%}
        {%- do queries.append(
            'select layer_rows.table_id, layer_rows.row_key from ' ~ layer
            ~ " as layer_rows where layer_rows.state_layer = 'delta' and layer_rows.table_id is not null") -%}
    {%- endfor -%}
    {{ return(queries | join('\nunion\n')) }}
{% endmacro %}


{#
    Whether the base layer of the layered state model `layer` (a relation) was last written by
    a run that read no further than `marks` ({format id: timestamp text}) for any format in
    them: its `cdc.base_through` (record_base_layer_marks) is known and not after them. Then
    every row its view shows that changed after the marks is a row of its delta layer (a
    delta-layer run rewrites every key a change touches there; only a compaction or full build
    writes the base layer). State tests and the column checks of the state views
    (checks_together.sql, meta `cdc_state_layers_model`) then check the delta layer's keys.
#}
{% macro state_base_layer_written_by(layer, marks) %}
    {%- set base_text = cdc_table_property(layer, 'cdc.base_through') -%}
    {%- if base_text is none -%}
        {{ return(false) }}
    {%- endif -%}
    {%- for format_id, base_mark in cdc_parse_read_through(base_text).items()
          if format_id in marks and base_mark > marks[format_id] -%}
        {{ return(false) }}
    {%- endfor -%}
    {{ return(true) }}
{% endmacro %}


{#
    Pre-hook of a layered state model: before a run writes its base layer (state_write_layer),
    remove `cdc.base_through` and `cdc.base_rows`, so that a run killed between that write and
    the post-hook (record_base_layer_marks) leaves no mark, and the state tests check every
    key, rather than the older mark, which would keep them scoped after a rewrite of the base
    layer (and the next run counts the base layer's rows again).
#}
{% macro forget_base_layer_marks() %}
    {%- if not execute or flags.EMPTY or cdc_in_unit_test() -%}
        {{ return('') }}
    {%- endif -%}
    {%- set writes_base = adapter.cdc_invocation_notes(invocation_id).get('cdc.write_layer:' ~ this) == 'base' -%}
    {%- if writes_base and (cdc_table_property(this, 'cdc.base_through') is not none
                            or cdc_table_property(this, 'cdc.base_rows') is not none) -%}
        {%- do unset_base_layer_marks() -%}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}


{#- Removes `cdc.base_through` and `cdc.base_rows` from this model's table (both hooks below). -#}
{% macro unset_base_layer_marks() %}
    {%- do cdc_forget_properties(this) -%}
    {%- call statement('unset_base_layer_marks') -%}
        alter table {{ this }} unset tblproperties if exists ('cdc.base_through', 'cdc.base_rows')
    {%- endcall -%}
{% endmacro %}


{#
    Post-hook of a layered state model: when this run wrote its base layer (a full build or a
    compaction, macro state_write_layer), or the table has no such mark yet, record the marks
    the run read through as table property `cdc.base_through`, which state_checked_keys
    compares with a test's marks. A missing mark is recorded as this run's (later than the
    base layer's real write: a test then checks every key once more, never fewer). A run that
    counted the base layer's rows (state_write_layer, when none was recorded) and left that
    layer as it was records the count (`cdc.base_rows`), which later runs read instead of
    counting it again.
#}
{% macro record_base_layer_marks() %}
    {#- (an `--empty` run reads no rows and records no marks: the next run records them) -#}
    {%- if not execute or flags.EMPTY or cdc_in_unit_test() -%}
        {{ return('') }}
    {%- endif -%}
    {%- set wrote_base = adapter.cdc_invocation_notes(invocation_id).get('cdc.write_layer:' ~ this) == 'base' -%}
    {%- set reads = cdc_run_properties().get(cdc_pending_reads_key(this)) -%}
    {%- set recorded = {} -%}
    {%- set counted_base = adapter.cdc_invocation_notes(invocation_id).get('cdc.base_rows:' ~ this) -%}
    {%- if not wrote_base and counted_base is not none -%}
        {%- do recorded.update({'cdc.base_rows': counted_base | string}) -%}
    {%- endif -%}
    {%- if reads and (wrote_base or cdc_table_property(this, 'cdc.base_through') is none) -%}
        {%- do recorded.update({'cdc.base_through': cdc_encode_read_through(reads)}) -%}
    {%- elif wrote_base -%}
        {#- no marks to say when: without the property every key is checked until a run records one -#}
        {%- do unset_base_layer_marks() -%}
    {%- endif -%}
    {%- if recorded -%}
        {%- do cdc_forget_properties(this) -%}
        {%- do cdc_set_table_properties(this, recorded) -%}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}


{#- The rows of `relation` (columns table_id, row_key) whose key is in `keys_relation` (the
    caller's relation, e.g. a CTE, of the keys state_checked_keys returned when a state test
    checks some keys only: they are few, so broadcast); every row when it is none. -#}
{% macro checked_key_rows(relation, keys_relation) -%}
    {%- if keys_relation -%}
    select /*+ broadcast(checked_keys) */ checked_rows.*
    from {{ relation }} as checked_rows
    left semi join {{ keys_relation }} as checked_keys
        on checked_rows.table_id = checked_keys.table_id
        and checked_rows.row_key = checked_keys.row_key
    {%- else -%}
    select * from {{ relation }}
    {%- endif -%}
{%- endmacro %}


{#
    Whether a history-wide accounting test looks the rows it checks up in the checked window
    first (and in the whole relation only for what it does not find there): in a `dbt build`
    with checked marks, on a change log whose tables hold at least var
    `cdc_scoped_key_checks_min_bytes`. On a smaller one the extra queries cost more than
    reading everything (1.0 s against 2.1 s on a 1,000-message batch; 5.8 s against 3.7 s on
    a 1% batch over 1M messages: bench/results/2026-12-02-accounting-window/).
#}
{% macro checked_lookups_in_window() %}
    {%- if not execute or not cdc_checked_window() -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set node = graph.nodes.get('model.' ~ project_name ~ '.change_log') -%}
    {%- set stored = cdc_model_stored_bytes(node) if node is not none else none -%}
    {{ return(stored is not none and stored >= var('cdc_scoped_key_checks_min_bytes')) }}
{% endmacro %}
