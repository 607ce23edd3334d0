{#
    Keep one row per `key_column` from the CTE `new_rows` (the earliest by `order_by`), and in
    an incremental run drop the keys the model already holds.

    The existing keys are found with a semi join of {{ this }} against the (small) new batch,
    then removed with an anti join against that (smaller) set: both joins broadcast the small
    side, so a small batch never shuffles the whole target.

    `deduplicate=false` is for a CTE that holds one row per key by construction: it skips the
    ranking window, a shuffle and sort of every row (`row_rank` is then 1).

    `held_within` = {'relation': R, 'columns': [...]} looks the held keys up among the model's
    rows whose `columns` match a row of R (small and distinct, broadcast) instead of among
    those matching the new keys: for a costly `new_rows` that any held copy of its keys shares
    those columns with. Spark does not reuse a CTE: the lookup of the new keys computed
    `new_rows` a second time.
#}
{% macro new_rows_only(new_rows, key_column, order_by, deduplicate=true, held_within=none) -%}
    select deduplicated.*
    from (
        select
            {{ new_rows }}.*,
            {%- if deduplicate %}
            row_number() over (partition by {{ key_column }} order by {{ order_by }}) as row_rank
            {%- else %}
            1 as row_rank
            {%- endif %}
        from {{ new_rows }}
    ) as deduplicated
    {%- if is_incremental() %}
    left anti join (
        {%- if held_within is not none %}
        select /*+ broadcast(held_within) */ existing.{{ key_column }}
        from {{ this }} as existing
        inner join {{ held_within.relation }} as held_within
            on
            {%- for column in held_within.columns %}
                {{ "and " if not loop.first }}existing.{{ column }} = held_within.{{ column }}
            {%- endfor %}
        {%- else %}
        select /*+ broadcast(incoming) */ existing.{{ key_column }}
        from {{ this }} as existing
        left semi join (select distinct {{ key_column }} from {{ new_rows }}) as incoming
            on existing.{{ key_column }} = incoming.{{ key_column }}
        {%- endif %}
    ) as already_held
        on deduplicated.{{ key_column }} = already_held.{{ key_column }}
    {%- endif %}
    where deduplicated.row_rank = 1
{%- endmacro %}


{#
    Per-format high-water marks of `this` from its own rows, read once when the model runs
    (one small query): {format id: SQL timestamp literal}. Landing time only grows within one
    landing table (one format), not across formats: a format's batch may become visible after
    another format's later batch was processed, so one max over every format could skip it.
    Empty outside an incremental run and at parse time. read_window falls back to these for a
    format the model has no read-through mark of.
#}
{% macro format_marks(column='landed_at') %}
    {%- if not (execute and is_incremental()) -%}
        {{ return({}) }}
    {%- endif -%}
    {{ return(marks_by_format(
        "select source_format, cast(max(" ~ column ~ ") as string) as mark from " ~ this
        ~ " where source_format is not null group by source_format"
    )) }}
{% endmacro %}


{#
    The marks a query answers, one row per format (source_format, mark as text), as
    {format id: SQL timestamp literal}; a format whose mark is null is left out.
#}
{% macro marks_by_format(query) %}
    {%- set marks = {} -%}
    {%- for row in run_query(query).rows if row[1] is not none -%}
        {%- do marks.update({row[0]: "timestamp'" ~ row[1] ~ "'"}) -%}
    {%- endfor -%}
    {{ return(marks) }}
{% endmacro %}


{#
    What a model after staging reads of each source format, decided once when it runs:
    {format id: {'after': SQL timestamp literal or none, 'strict': bool, 'through': SQL
    timestamp literal or none}}; a format not listed is read whole.

    - `through`: the least read-through mark of that format among the tables the model reads
      (input_read_through). Those tables hold everything of the format landed up to it, and
      the model records it as its own read-through mark once its statement succeeds.
    - `after`, strict: the model's own read-through mark. Everything up to it is in the model
      already, and nothing can land at or before it any more, so the read starts after it.
    - `after`, not strict (a format without a read-through mark: a user's own raw table, or a
      table built before marks were kept): the model's greatest landing time of that format
      from its own rows (`fallback`: 'format' for format_marks, 'state' for state_marks),
      read again from there; the model's own de-duplication drops what it already holds.

    Outside an incremental run `after` is none. A run killed after its statement but before
    recording keeps the earlier marks: the next run reads that batch again, as the fallback
    does.
#}
{% macro read_window(fallback='format') %}
    {%- set window = {} -%}
    {%- if not execute or cdc_in_unit_test() -%}
        {#- (a unit test's given rows are the whole input) -#}
        {{ return(window) }}
    {%- endif -%}
    {%- set through = input_read_through() -%}
    {%- set recorded = cdc_read_through(this) if is_incremental() else {} -%}
    {%- set unrecorded = [] -%}
    {%- for format_id in cdc_enabled_formats() if format_id not in recorded -%}
        {%- do unrecorded.append(format_id) -%}
    {%- endfor -%}
    {%- set own = {} -%}
    {%- if is_incremental() and unrecorded -%}
        {%- do own.update(format_marks() if fallback == 'format' else state_marks()) -%}
    {%- endif -%}
    {%- for format_id in (through.keys() | list) + (recorded.keys() | list) + (own.keys() | list) -%}
        {%- if format_id in recorded -%}
            {%- set after, strict = "timestamp'" ~ recorded[format_id] ~ "'", true -%}
        {%- else -%}
            {%- set after, strict = own.get(format_id), false -%}
        {%- endif -%}
        {%- do window.update({format_id: {
            'after': after,
            'strict': strict,
            'through': "timestamp'" ~ through[format_id] ~ "'" if format_id in through else none,
        }}) -%}
    {%- endfor -%}
    {%- do cdc_note_read_through(through) -%}
    {{ return(window) }}
{% endmacro %}


{#
    Per format, the least read-through mark (cdc.read_through) among the tables the current
    model reads: its refs, looking through ephemeral models and views to the tables they
    read. A table without a mark of a format does not bound it: it holds none of that format,
    or it is a model not run since marks were kept, whose inputs have not changed since.
#}
{% macro input_read_through() %}
    {%- set least = {} -%}
    {%- set pending = model.depends_on.nodes | list -%}
    {%- set seen = [] -%}
    {%- for _ in range(1000) if pending -%}
        {%- set unique_id = pending.pop() -%}
        {%- set parent = graph.nodes.get(unique_id) -%}
        {%- if unique_id not in seen and parent is not none and parent.resource_type == 'model' -%}
            {%- do seen.append(unique_id) -%}
            {%- if parent.config.materialized in ('ephemeral', 'view') -%}
                {%- do pending.extend(parent.depends_on.nodes) -%}
            {%- else -%}
                {%- for format_id, mark in cdc_read_through(cdc_node_relation(parent)).items() -%}
                    {%- if format_id not in least or mark < least[format_id] -%}
                        {%- do least.update({format_id: mark}) -%}
                    {%- endif -%}
                {%- endfor -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(least) }}
{% endmacro %}


{#
    SQL condition on `column` (a landing time) for one format's entry of read_window:
    after `after` (`>` when strict, else `>=`) and at or before `through`; true for neither,
    and false when the window is empty (Spark then drops that read from the plan unread).
#}
{% macro read_window_condition(column, entry) -%}
    {%- if entry.strict and entry.after is not none and entry.after == entry.through -%}
        {{- return('false') -}}
    {%- endif -%}
    {%- set conditions = [] -%}
    {%- if entry.after is not none -%}
        {%- do conditions.append(column ~ (' > ' if entry.strict else ' >= ') ~ entry.after) -%}
    {%- endif -%}
    {%- if entry.through is not none -%}
        {%- do conditions.append(column ~ ' <= ' ~ entry.through) -%}
    {%- endif -%}
    {{- conditions | join(' and ') if conditions else 'true' -}}
{%- endmacro %}


{#
    SQL condition: the row of `relation` is in its format's read window (read_window).
    Formats without an entry are read whole. Written as literal comparisons joined by `or`
    (not a `case`), so Parquet can skip the files of batches already processed.
#}
{% macro landed_since_mark(relation, window) -%}
    {%- if window -%}
        (
            {%- for format_id, entry in window.items() %}
            ({{ relation }}.source_format = {{ cdc_sql_string(format_id) }} and {{ read_window_condition(relation ~ '.landed_at', entry) }}) or
            {%- endfor %}
            {{ relation }}.source_format not in ({% for format_id in window %}{{ cdc_sql_string(format_id) }}{{ ", " if not loop.last }}{% endfor %})
            or {{ relation }}.source_format is null
        )
    {%- else -%}
        true
    {%- endif -%}
{%- endmacro %}


{#
    The staging events of every enabled format whose class is one of `event_classes` (none:
    of any class), in that format's read window (read_window): one select per staging model,
    each filtered on literal landing times, so Parquet skips the files of batches already
    processed and a model with nothing new reads next to nothing. With `before_window`, the
    events earlier runs read instead (read_before_window_condition).
#}
{% macro staged_events_since(event_classes, window, before_window=false, relations=none) -%}
    {%- for format_id in cdc_enabled_formats() %}
    select staged.*
    from {{ relations[format_id] if relations is not none else ref(cdc_format(format_id)['staging_model']) }} as staged
    where {% if event_classes is none %}true{% else %}staged.event_class in ({% for c in event_classes %}{{ cdc_sql_string(c) }}{{ ", " if not loop.last }}{% endfor %}){% endif %}
        {%- if before_window %}
        and {{ read_before_window_condition('staged.landed_at', window[format_id]) if format_id in window else 'false' }}
        {%- elif format_id in window %}
        and {{ read_window_condition('staged.landed_at', window[format_id]) }}
        {%- endif %}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
{%- endmacro %}


{#
    SQL condition: the landing time `column` is before one format's read_window entry, i.e.
    the row was read by an earlier run: at or before `after` when strict, before it when not
    (the non-strict window reads `after` again). False for an entry without `after` (the
    window reads the whole format).
#}
{% macro read_before_window_condition(column, entry) -%}
    {%- if entry.after is none -%}
        {{- return('false') -}}
    {%- endif -%}
    {{- column ~ (' <= ' if entry.strict else ' < ') ~ entry.after -}}
{%- endmacro %}


{#
    SQL condition: the row of `relation` was read by an earlier run of the model
    (read_before_window_condition of its format's read_window entry). A format without an
    entry, or a row without a format, is read whole by this run, so never before it.
#}
{% macro landed_before_window(relation, window) -%}
    (
        {%- for format_id, entry in window.items() if entry.after is not none %}
        ({{ relation }}.source_format = {{ cdc_sql_string(format_id) }} and {{ read_before_window_condition(relation ~ '.landed_at', entry) }}) or
        {%- endfor %}
        false
    )
{%- endmacro %}


{#
    The changes a state model (current_state, row_history) reads: change_log in its read window.
    In an incremental `dbt run`/`build` they are computed once into an input table
    (statement_input_table, named by new_changes_table_name): the state models refer to their
    new changes in several places of one plan, and each reference would read the change_log
    view again (a union over every staging model and the anti join of repeated copies). The
    two state models read the same window in a normal run, and then share one table: its name
    is a digest of the invocation and the query, and it is dropped once both have run
    (release_input_tables, their post-hook) or at the end of the invocation
    (drop_input_tables). Elsewhere (a full build, compile, docs, a model about to be skipped)
    the query is inlined. Returns a relation to select from.
#}
{% macro state_new_changes(window) -%}
    {%- set query = 'select changes.* from ' ~ ref('change_log') ~ ' as changes where '
                    ~ landed_since_mark('changes', window) -%}
    {{- return(statement_input_table(new_changes_table_name(query), query, shared=true) or '(' ~ query ~ ')') -}}
{%- endmacro %}


{# The input table state_new_changes writes new changes to: one name per invocation and
   query, so the state models share it and no later invocation reads it. #}
{% macro new_changes_table_name(query) -%}
    {{- return('cdc_new_changes__' ~ local_md5(invocation_id ~ '|' ~ query)[:24]) -}}
{%- endmacro %}


{# `<schema>__<model>` of the running model, as a plain identifier: the input tables of the
   same model in two schemas (two projects in one Spark session) stay apart. #}
{% macro input_table_suffix() -%}
    {{- return(modules.re.sub('[^A-Za-z0-9_]', '_', this.schema ~ '__' ~ this.identifier)) -}}
{%- endmacro %}


{#
    In an incremental `dbt run`/`build` of a state model that has new input: runs `query` once,
    before the model's statement, and returns the relation that holds its rows: in a local
    session a local checkpoint behind the temporary view `name`, elsewhere the Parquet table
    `name` in the model's schema (adapter.cdc_create_input_table). Not CACHE TABLE: Spark
    does not use cached data in a query with a WITH clause (every model has one), so a cached
    view was computed again at each reference. `shared`: an input this invocation created
    already under `name` is used as it is (the name must then stand for the query:
    new_changes_table_name), and it is dropped once every model of the invocation that reads
    new changes (state_new_changes) has run (release_input_tables), or at the end
    (drop_input_tables); creating one first drops those a killed run left in the schema.
    Not shared: created again, and dropped after the model by the same post-hook
    (release_input_tables) or at the end of the invocation. Elsewhere (a full build,
    compile, docs, a unit test, a model about to be skipped as unchanged) returns none: the
    caller inlines the query.
#}
{% macro statement_input_table(name, query, shared=false) -%}
    {%- if input_tables_apply() -%}
        {#- its readers: this model, and if shared every selected model that reads new changes -#}
        {%- set readers = [model.unique_id] -%}
        {%- if shared -%}
            {%- for node in graph.nodes.values()
                  if node.resource_type == 'model' and node.unique_id in (selected_resources or [])
                     and 'state_new_changes(' in node.raw_code and node.unique_id not in readers -%}
                {%- do readers.append(node.unique_id) -%}
            {%- endfor -%}
        {%- endif -%}
        {{- return(adapter.cdc_create_input_table(
                this.schema, name, query, input_tables(), readers,
                sweep_prefix=('cdc_new_changes__' if shared else none), shared=shared)) -}}
    {%- endif -%}
    {{- return(none) -}}
{%- endmacro %}


{# Whether statement_input_table writes input tables for the running model (see there). #}
{% macro input_tables_apply() -%}
    {{- return(execute and is_incremental() and flags.WHICH in ('run', 'build') and not cdc_in_unit_test()
               and not cdc_inputs_unchanged()) -}}
{%- endmacro %}


{# The input tables of this invocation: {relation: unique ids of the models still to read it}. #}
{% macro input_tables() -%}
    {{- return(cdc_run_properties().setdefault('cdc.input_tables', {})) -}}
{%- endmacro %}


{# Post-hook of a model that reads input tables: drops each one no other model is still to read. #}
{% macro release_input_tables() -%}
    {%- if execute -%}
        {%- do adapter.cdc_release_input_tables(input_tables(), model.unique_id) -%}
    {%- endif -%}
    {{- return('') -}}
{%- endmacro %}


{# on-run-end: drops the input tables still held (a reader skipped, failed or not selected). #}
{% macro drop_input_tables() -%}
    {%- if execute -%}
        {%- do adapter.cdc_release_input_tables(input_tables(), none) -%}
    {%- endif -%}
    {{- return('') -}}
{%- endmacro %}


{#
    current_state's keys to rebuild from the whole change log (incremental runs): a prior row
    merged from partial images stands for changes below its sort_key, so a new change below it
    that landed after it (or came from another format) may belong under the partials merged
    into it, and the key is rebuilt from all its changes, as a full rebuild does.
    `new_changes` is the relation of the run's new changes (state_new_changes).
    Returns none when no key needs it, else a relation of distinct (table_id, row_key). In a
    real incremental run a `limit 1` read asks first whether there is any (almost always
    not), and only then are the keys computed before the statement (an input table,
    rebuild_keys_table_name); with none, the statement leaves out
    the rebuild path and its read of the whole change log (a union over every staging model).
#}
{% macro state_rebuild_keys(new_changes) -%}
    {%- if not is_incremental() or not relation_has_row(this, 'image_is_merged') -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set query -%}
    select distinct
        prior_state.table_id,
        prior_state.row_key
    from ({{ state_current_rows(this) }}) as prior_state
    inner join ({{ state_events(new_changes) }}) as new_events
        on prior_state.table_id = new_events.table_id
        and prior_state.row_key = new_events.row_key
    where prior_state.image_is_merged
        and new_events.sort_key < prior_state.sort_key
        and (
            new_events.landed_at > prior_state.landed_at
            or new_events.source_format <> prior_state.source_format
        )
    {%- endset -%}
    {%- if not input_tables_apply() -%}
        {{- return('(' ~ query ~ ')') -}}
    {%- endif -%}
    {#- almost always no key: a read that stops at the first row, not a table written and dropped -#}
    {%- if run_query('select 1 from (' ~ query ~ ') as rebuild_keys limit 1').rows | length == 0 -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return(statement_input_table(rebuild_keys_table_name(), query)) -}}
{%- endmacro %}


{# The input table state_rebuild_keys writes current_state's keys to rebuild to (released like the others). #}
{% macro rebuild_keys_table_name() -%}
    {{- return('cdc_rebuild_keys__' ~ input_table_suffix()) -}}
{%- endmacro %}


{#
    The marks (source_format, high_water_mark) current_state and row_history have read through
    already: per format, where this run's read starts (the `after` of its read_window
    entries), as literal rows, so they need no scan of the model. No rows on a full build.
#}
{% macro state_prior_marks(window) -%}
    {%- set rows = [] -%}
    {%- for format_id, entry in window.items() if entry.after is not none -%}
        {%- do rows.append("(" ~ cdc_sql_string(format_id) ~ ", " ~ entry.after ~ ")") -%}
    {%- endfor -%}
    {%- if rows %}
    select source_format, high_water_mark
    from values {{ rows | join(', ') }} as marks (source_format, high_water_mark)
    {%- else %}
    select cast(null as string) as source_format, cast(null as timestamp) as high_water_mark
    where false
    {%- endif %}
{%- endmacro %}


{#
    What current_state and row_history read of `schema_changes` (the relation): the truncates
    and dropped tables landed in this run's read window, as (source_format, table_id,
    sort_key, landed_at).
#}
{% macro state_clearings_since(schema_changes, window) -%}
    select
        clearings.source_format,
        clearings.table_id,
        clearings.sort_key,
        clearings.landed_at
    from {{ schema_changes }} as clearings
    where clearings.clears_table and clearings.table_id is not null
        and {{ landed_since_mark('clearings', window) }}
{%- endmacro %}


{#
    One row: what current_state or row_history has read through once this run succeeds,
    overall (`refreshed_through`) and per source format (`refreshed_through_by_format`), from
    the `landed_at` of the CTEs named in `inputs` (each with source_format and landed_at) and
    the marks of state_prior_marks (a format this run read nothing of keeps its mark).
#}
{% macro state_refresh_mark(window, inputs) -%}
    select
        max(refresh_marks.refreshed_through) as refreshed_through,
        map_from_entries(array_sort(collect_list(
            struct(refresh_marks.source_format, refresh_marks.refreshed_through)
        ))) as refreshed_through_by_format
    from (
        select
            read_inputs.source_format,
            max(read_inputs.landed_at) as refreshed_through
        from (
            {%- for input in inputs %}
            select
                {{ input }}.source_format,
                {{ input }}.landed_at
            from {{ input }}
            union all
            {%- endfor %}
            select
                prior_marks.source_format,
                prior_marks.high_water_mark as landed_at
            from ({{ state_prior_marks(window) }}) as prior_marks
        ) as read_inputs
        group by read_inputs.source_format
    ) as refresh_marks
{%- endmacro %}


{#
    The per-format high-water marks of current_state and row_history, read once when the
    model runs: {format id: SQL timestamp literal}. They keep what they have read per format
    in the map column `refreshed_through_by_format` (a model's rows need not carry every
    format it read, e.g. a change that lost to a newer one). Empty outside incremental runs.
#}
{% macro state_marks() %}
    {%- if not (execute and is_incremental()) -%}
        {{ return({}) }}
    {%- endif -%}
    {{ return(marks_by_format(
        "select source_format, cast(max(mark) as string) as mark from ("
        ~ "select explode(refreshed_through_by_format) as (source_format, mark) from " ~ this
        ~ ") as marks where source_format is not null group by source_format"
    )) }}
{% endmacro %}


{#
    Whether `relation` has a row where `condition` holds: one `limit 1` query when the model
    runs. Models use it to leave out of their SQL a path that such rows alone can feed (Spark
    inlines every use of a CTE, so a path that reads the new changes several times multiplies
    the plan; a 3-message batch planned 1,000 nodes). True whenever it cannot tell (parsing,
    or the relation does not exist yet), which keeps the path in.
#}
{% macro relation_has_row(relation, condition) %}
    {%- if not execute or cdc_in_unit_test() or cdc_inputs_unchanged() -%}
        {#- (a model about to be skipped as unchanged needs no probe; a unit test's input is
            its given rows, not the table) -#}
        {{ return(true) }}
    {%- endif -%}
    {%- if adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) is none -%}
        {{ return(true) }}
    {%- endif -%}
    {{ return(run_query("select 1 from " ~ relation ~ " where " ~ condition ~ " limit 1").rows | length > 0) }}
{% endmacro %}


{#
    current_state and row_history are stored in two layers (partition `state_layer` of their
    int_*_layers models; docs/current-state.md). `base` holds every key as of the last full
    build or compaction; `delta` holds every key changed since, whole (all of a key's rows),
    plus one placeholder row (every column null) that keeps the partition written. A key's
    rows in `delta` replace its rows in `base`.

    This returns how this run writes them: 'delta' (only the delta layer is rewritten: its
    rows plus the keys this run touches, so a small batch never rewrites the whole table) or
    'base' (everything is written to `base` and `delta` is emptied: a full build, or a
    compaction once the delta layer holds more than var('cdc_state_delta_ratio') of the base
    layer's rows). When the model runs, the delta layer's rows are counted; the base layer's
    count is the one a run recorded after counting it (table property `cdc.base_rows`, macro
    record_base_layer_marks; removed whenever the base layer is written again), else counted
    too: the base layer is most of the table, and counting it read every row of it on every
    run (0.3 s at a million messages). So the base layer is counted once after each full
    build or compaction, in the statement that counted it before.
#}
{% macro state_write_layer() %}
    {%- if not is_incremental() -%}
        {%- set layer = 'base' -%}
    {%- elif not execute or cdc_in_unit_test() or cdc_inputs_unchanged() -%}
        {%- set layer = 'delta' -%}
    {%- else -%}
        {%- set counts = {'base': 0, 'delta': 0} -%}
        {%- set recorded_base = cdc_table_property(this, 'cdc.base_rows') -%}
        {%- if recorded_base is not none and modules.re.fullmatch('[0-9]+', recorded_base | string) -%}
            {%- do counts.update({'base': recorded_base | int}) -%}
        {%- endif -%}
        {%- set base_counted = not counts.base -%}
        {%- for row in run_query(
            "select state_layer, count(*) from " ~ this
            ~ ("" if base_counted else " where state_layer = 'delta'") ~ " group by state_layer"
        ).rows -%}
            {%- do counts.update({row[0]: row[1]}) -%}
        {%- endfor -%}
        {%- if base_counted and execute -%}
            {#- for the post-hook to record, when this run leaves the base layer as it is -#}
            {%- do adapter.cdc_invocation_notes(invocation_id).update({'cdc.base_rows:' ~ this: counts.base}) -%}
        {%- endif -%}
        {#- (the delta layer's count includes its placeholder row) -#}
        {%- set delta_rows = [counts['delta'] - 1, 0] | max -%}
        {%- set layer = 'base' if delta_rows > var('cdc_state_delta_ratio') | float * counts['base'] else 'delta' -%}
    {%- endif -%}
    {#- noted for the post-hook record_base_layer_marks -#}
    {%- if execute -%}
        {%- do adapter.cdc_invocation_notes(invocation_id).update({'cdc.write_layer:' ~ this: layer}) -%}
    {%- endif -%}
    {{ return(layer) }}
{% endmacro %}


{#
    The current rows of a layered state relation (state_write_layer): the delta layer's rows
    and the base layer's rows of every key the delta layer does not hold. The delta layer's
    keys are broadcast: compaction keeps them a fraction of the base layer.
#}
{% macro state_current_rows(relation) -%}
    select delta_rows.*
    from {{ relation }} as delta_rows
    where delta_rows.state_layer = 'delta' and delta_rows.table_id is not null
    union all
    select base_rows.*
    from ({{ state_base_rows(relation) }}) as base_rows
{%- endmacro %}


{#
    The base layer's rows of a layered state relation that are current: those of every key
    the delta layer does not hold (state_current_rows). The delta layer's keys are broadcast.
#}
{% macro state_base_rows(relation) -%}
    select /*+ broadcast(delta_keys) */ base_rows.*
    from {{ relation }} as base_rows
    left anti join (
        select distinct changed.table_id, changed.row_key
        from {{ relation }} as changed
        where changed.state_layer = 'delta' and changed.table_id is not null
    ) as delta_keys
        on base_rows.table_id = delta_keys.table_id
        and base_rows.row_key = delta_keys.row_key
    where base_rows.state_layer = 'base'
{%- endmacro %}


{#
    The CTE body `layer_rows` of current_state's and row_history's layers models (incremental
    runs): the current rows of `this` (state_current_rows) that this run rewrites, plus
    `is_touched`, true for the rows decided again (a key with a row in `new_rows`, or every key
    of a table truncated or dropped now, `new_clearings`). With `write_layer` 'delta' those are
    the delta layer's rows and the touched keys' rows; with 'base' (compaction) every row.
    The untouched rows are carried over as they are, so a small batch shuffles its own keys,
    not the whole prior table.

    The small sides (8-byte hashes of the new keys, the tables cleared now) are broadcast:
    Spark would size them from the change log and shuffle the whole prior table. A hash
    collision only marks an unchanged row as touched: it is decided again, with the same
    result.

    Writing the delta layer, the base layer's touched rows are found by semi joins, not by
    the outer joins that flag every row: an outer join copies each base row it passes, the
    untouched 99% of a small batch's read included, where a semi join drops them first
    (bench/results/2026-12-07-twenty-first/). The rows of a cleared table come in a branch
    of their own, without the keys already touched; with no table cleared now its broadcast
    side is empty and Spark's adaptive execution skips the branch.
#}
{% macro touched_layer_rows(new_rows, new_clearings, write_layer) -%}
    {%- set touched_keys -%}
        select distinct xxhash64({{ new_rows }}.table_id, {{ new_rows }}.row_key) as key_hash
        from {{ new_rows }}
    {%- endset -%}
    {%- set cleared_tables -%}
        select distinct {{ new_clearings }}.table_id from {{ new_clearings }}
    {%- endset -%}
    {%- if write_layer == 'delta' %}
    select /*+ broadcast(touched_keys, cleared_tables) */
        delta_rows.*,
        touched_keys.key_hash is not null or cleared_tables.table_id is not null as is_touched
    from {{ this }} as delta_rows
    left join ({{ touched_keys }}) as touched_keys
        on xxhash64(delta_rows.table_id, delta_rows.row_key) = touched_keys.key_hash
    left join ({{ cleared_tables }}) as cleared_tables
        on delta_rows.table_id = cleared_tables.table_id
    where delta_rows.state_layer = 'delta' and delta_rows.table_id is not null
    union all
    select /*+ broadcast(touched_keys) */ base_rows.*, true as is_touched
    from ({{ state_base_rows(this) }}) as base_rows
    left semi join ({{ touched_keys }}) as touched_keys
        on xxhash64(base_rows.table_id, base_rows.row_key) = touched_keys.key_hash
    union all
    select /*+ broadcast(cleared_tables, touched_keys) */ base_rows.*, true as is_touched
    from ({{ state_base_rows(this) }}) as base_rows
    left semi join ({{ cleared_tables }}) as cleared_tables
        on base_rows.table_id = cleared_tables.table_id
    left anti join ({{ touched_keys }}) as touched_keys
        on xxhash64(base_rows.table_id, base_rows.row_key) = touched_keys.key_hash
    {%- else %}
    select /*+ broadcast(touched_keys, cleared_tables) */
        current_rows.*,
        touched_keys.key_hash is not null or cleared_tables.table_id is not null as is_touched
    from ({{ state_current_rows(this) }}) as current_rows
    left join ({{ touched_keys }}) as touched_keys
        on xxhash64(current_rows.table_id, current_rows.row_key) = touched_keys.key_hash
    left join ({{ cleared_tables }}) as cleared_tables
        on current_rows.table_id = cleared_tables.table_id
    {%- endif %}
{%- endmacro %}


{#
    The CTE body `untouched_rows` of the layers models (incremental runs): the rows of
    `layer_rows` (touched_layer_rows) carried over as they are, but for this run's marks from
    `refresh_mark` (state_refresh_mark), in the stored column order: the layers models end
    their rows with refreshed_through, refreshed_through_by_format, key_bucket. When this run
    writes the delta layer they are all delta rows, and saying so lets Spark skip the base
    layer's files.
#}
{% macro untouched_layer_rows(layer_rows, write_layer, refresh_mark) -%}
    select
        {{ layer_rows }}.* except (
            refreshed_through, refreshed_through_by_format, key_bucket, state_layer, is_touched
        ),
        {{ refresh_mark }}.refreshed_through,
        {{ refresh_mark }}.refreshed_through_by_format,
        {{ layer_rows }}.key_bucket
    from {{ layer_rows }}
    cross join {{ refresh_mark }}
    where not {{ layer_rows }}.is_touched
    {%- if write_layer == 'delta' %}
        and {{ layer_rows }}.state_layer = 'delta'
    {%- endif %}
{%- endmacro %}


{#
    The rows a layers model writes: `final_rows` (a CTE of its columns, without the layer)
    into `write_layer` (state_write_layer), and the delta layer's placeholder row (every column
    null). The placeholder makes a dynamic partition overwrite replace the delta layer even
    when it is emptied (compaction, full build); readers skip it (state_current_rows).
#}
{% macro state_layer_output(final_rows, write_layer) -%}
    select {{ final_rows }}.*, {{ cdc_sql_string(write_layer) }} as state_layer
    from {{ final_rows }}
    union all
    select placeholder.*, 'delta' as state_layer
    from (select 1 as anchor) as one_row
    left join {{ final_rows }} as placeholder
        on false
{%- endmacro %}


{#
    True while dbt compiles a model for one of its unit tests (models/**/_*__unit_tests.yml):
    its inputs are then the test's given rows, so the macros that read the real tables at
    compile time (marks, probes) must not shape its SQL.
#}
{% macro cdc_in_unit_test() %}
    {{ return(model is mapping and model.get('resource_type') == 'unit_test') }}
{% endmacro %}


{#
    What the read window's staged events hold, asked when the model runs, before its
    statement is planned: one row per event class and format, with the least and greatest
    pairing key of those events and how many carry a ddl_meta: [[event_class, source_format,
    min pairing_key, max pairing_key, ddl_meta count], ...]. One query per read window and
    invocation (the models that ask read the
    same window after the same staging run, and no staging table changes while they run: they
    all run after every staging model). None (no query) at parse time, in `dbt compile` and
    unit tests, on a full build, and when the model is skipped anyway because nothing it
    reads changed (cdc_inputs_unchanged).
#}
{% macro window_events_summary(window) %}
    {%- if not execute or flags.WHICH not in ('run', 'build') or not is_incremental()
          or cdc_in_unit_test() or cdc_inputs_unchanged() -%}
        {{ return(none) }}
    {%- endif -%}
    {#- the staging tables from the graph, not ref(): the model need not ref them itself (it may
        read them through int_events_unioned, and its unit tests give only what it refs) -#}
    {%- set relations = {} -%}
    {%- for format_id in cdc_enabled_formats() -%}
        {%- set node = graph.nodes.get('model.' ~ project_name ~ '.' ~ cdc_format(format_id)['staging_model']) -%}
        {%- if node is none -%}
            {{ return(none) }}
        {%- endif -%}
        {%- do relations.update({format_id: cdc_node_relation(node) | string}) -%}
    {%- endfor -%}
    {%- set window_events = staged_events_since(none, window, relations=relations) -%}
    {%- set known = cdc_run_properties() -%}
    {%- set key = 'cdc.window_events_summary:' ~ local_md5(window_events) -%}
    {%- if key not in known -%}
        {%- do known.update({key: run_query(
            'select window_events.event_class, window_events.source_format,'
            ~ ' min(window_events.pairing_key), max(window_events.pairing_key), count(window_events.ddl_meta)'
            ~ ' from (' ~ window_events ~ ') as window_events'
            ~ ' group by window_events.event_class, window_events.source_format'
        ).rows | map('list') | list}) -%}
    {%- endif -%}
    {{ return(known[key]) }}
{% endmacro %}


{#
    Whether `staged_events_since(event_classes, window)` holds no row (window_events_summary).
    A model that selects rare events (DDL, invalid messages: most batches carry none) then
    writes `cdc_nothing_in_window_marker()` into its SQL and skips its statement: only its
    read-through marks move on. False when the summary is not asked.
#}
{% macro staged_events_none_since(event_classes, window) %}
    {%- set summary = window_events_summary(window) -%}
    {%- if summary is none -%}
        {{ return(false) }}
    {%- endif -%}
    {{ return(summary | map(attribute=0) | select('in', event_classes) | list | length == 0) }}
{% endmacro %}


{#
    Whether an event of `event_classes` in the read window may carry a ddl_meta (DataWorks'
    ddlMeta, which schema_changes decodes with a Python UDF): false only when
    window_events_summary shows that none does, so the model can leave the UDF out and start
    no Python worker; true when the summary is not asked.
#}
{% macro window_events_carry_ddl_meta(event_classes, window) %}
    {%- set summary = window_events_summary(window) -%}
    {%- if summary is none -%}
        {{ return(true) }}
    {%- endif -%}
    {%- for row in summary if row[0] in event_classes and row[4] > 0 -%}
        {{ return(true) }}
    {%- endfor -%}
    {{ return(false) }}
{% endmacro %}


{#
    SQL condition on `relation`'s staged events: its pairing key lies within the range of the
    pairing keys of its format's update halves in the read window (window_events_summary).
    A model that looks up the halves of the groups new halves touch adds it to that lookup:
    the condition cannot drop a half of a touched group, and Parquet skips every file whose
    keys lie outside the ranges (pairing keys such as DataWorks' sequenceId grow as they
    land, so the earlier batches' files mostly do). `true` when the summary is not asked.
#}
{% macro window_pairing_key_ranges(relation, window) %}
    {%- set summary = window_events_summary(window) -%}
    {%- if summary is none -%}
        {{ return('true') }}
    {%- endif -%}
    {%- set ranges = [] -%}
    {%- for event_class, format_id, low, high, _ddl_metas in summary
          if event_class == 'update_half' and format_id is not none and low is not none -%}
        {%- do ranges.append('(' ~ relation ~ '.source_format = ' ~ cdc_sql_string(format_id)
            ~ ' and ' ~ relation ~ '.pairing_key between ' ~ cdc_sql_string(low) ~ ' and ' ~ cdc_sql_string(high) ~ ')') -%}
    {%- endfor -%}
    {{ return('(' ~ (ranges | join(' or ') if ranges else 'false') ~ ')') }}
{% endmacro %}
