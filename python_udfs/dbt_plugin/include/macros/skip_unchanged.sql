{#-
    Models with nothing new cost a metadata lookup, not a Spark statement.

    A `table` or `incremental` model run by this adapter is skipped (no statement, status
    "SKIP nothing new") when either:

    1. its compiled SQL says so: it contains `cdc_nothing_new_marker()` (a staging model whose
       read plan found nothing landed since its last complete batch: new_landed_messages), or
       `cdc_nothing_in_window_marker()` (a model after staging whose read window holds no row
       it selects, e.g. no DDL in the batch: staged_events_none_since; it records the
       read-through marks it noted, and nothing else, so its window moves on while its
       version, and what reads it, stay as they are), or
    2. nothing it reads changed since its last successful run: every model it refs (through
       ephemeral models) carries a version (table property `cdc.version`), and the digest of
       those versions, of the model's own code and of the project's code version (every macro
       and var, adapter.cdc_code_version) equals the one it recorded (`cdc.inputs`) at its
       last successful run. Not its compiled SQL: a first (full) and a later (incremental) run
       compile differently, and the marks in it are read from the model itself.

    A view whose inputs changed but whose compiled SQL is the one it was created with (digest
    `cdc.sql`) is not created again: it reads its tables when queried, so only its new version
    is recorded (status `OK view unchanged`).

    A run that is not skipped records, after its statement succeeded, a new `cdc.version`
    (this invocation) and the `cdc.inputs` it read. So a model that failed or was killed
    records nothing and runs again next time (with its own incremental logic, which reads
    from its marks and recovers); a landing table written by `cdc-pipeline land` is versioned
    by its committed mark (`cdc.committed_through`), a user's own raw table (var
    `cdc_sources`) has no version, so what reads one is never skipped by rule 2; a full refresh is
    never skipped, and a `--empty` run records no inputs (the next run does the work);
    changed code (project upgrade, other vars) changes the digest; a model
    configured `cdc_skip_when_unchanged=false` (for a model whose result depends on the time
    of the build) is never skipped.
-#}

{#- The comment by which a model's compiled SQL says it has nothing new to read. -#}
{%- macro cdc_nothing_new_marker() -%}
    {{ return('/* cdc:nothing-new */') }}
{%- endmacro -%}


{#- The comment by which a model's compiled SQL says its read window holds nothing it selects:
    no statement, only its read-through marks move (rule 1 above). -#}
{%- macro cdc_nothing_in_window_marker() -%}
    {{ return('/* cdc:nothing-in-window */') }}
{%- endmacro -%}


{#- The digest of what `node` reads now (versions of the refs, and `code`: a test's compiled SQL,
    a model's own code and the project's code version), or none when a version is unknown (a
    model never recorded, a source other than a landing table, anything else). A seed is
    versioned by the checksum of the file its table was loaded from (seeds.sql). A landing table
    written by `cdc-pipeline land` or `requeue` is versioned by its committed mark
    (`cdc.committed_through`, which changes with every committed batch); a user's own raw
    table carries none and is never trusted to be unchanged. `properties` caches table
    properties by relation across calls. -#}
{%- macro cdc_input_digest(node, code, properties={}) -%}
    {%- set versions = [] -%}
    {%- set pending = node.depends_on.nodes | list -%}
    {%- set seen = [] -%}
    {%- if not pending -%}
        {{ return(none) }}
    {%- endif -%}
    {%- for _ in range(1000) if pending -%}
        {%- set unique_id = pending.pop() -%}
        {%- if unique_id not in seen -%}
            {%- do seen.append(unique_id) -%}
            {%- set parent = graph.nodes.get(unique_id) -%}
            {%- set landing = graph.sources.get(unique_id) if parent is none else none -%}
            {%- if landing is not none -%}
                {#- A landing table written by `cdc-pipeline land`: its committed mark. -#}
                {%- set committed = cdc_table_properties(cdc_node_relation(landing), properties).get('cdc.committed_through') -%}
                {%- if committed is none -%}
                    {{ return(none) }}
                {%- endif -%}
                {%- do versions.append(unique_id ~ '=' ~ committed) -%}
            {%- elif parent is not none and parent.resource_type == 'seed' -%}
                {#- A seed: the checksum of the file its table was loaded from (seeds.sql). -#}
                {%- set loaded = cdc_table_properties(cdc_node_relation(parent), properties).get('cdc.version') -%}
                {%- if loaded is none -%}
                    {{ return(none) }}
                {%- endif -%}
                {%- do versions.append(unique_id ~ '=' ~ loaded) -%}
            {%- elif parent is none or parent.resource_type != 'model' -%}
                {{ return(none) }}
            {%- elif parent.config.materialized in ('ephemeral', 'view') -%}
                {#- No data of its own: what it reads, and its SQL. -#}
                {%- do versions.append(unique_id ~ '=' ~ local_md5(parent.raw_code)) -%}
                {%- do pending.extend(parent.depends_on.nodes) -%}
            {%- elif parent.config.materialized not in ('table', 'incremental') -%}
                {{ return(none) }}
            {%- else -%}
                {%- set version = cdc_table_properties(cdc_node_relation(parent), properties).get('cdc.version') -%}
                {%- if version is none -%}
                    {{ return(none) }}
                {%- endif -%}
                {%- do versions.append(unique_id ~ '=' ~ version) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if pending -%}
        {{ return(none) }}
    {%- endif -%}
    {{ return(local_md5((versions | sort | join(';')) ~ '|' ~ code)) }}
{%- endmacro -%}


{%- macro cdc_node_relation(node) -%}
    {{ return(api.Relation.create(database=node.database, schema=node.schema,
                                  identifier=node.identifier if node.resource_type == 'source' else node.alias)) }}
{%- endmacro -%}


{#- The table properties of `relation` ({} when it does not exist), cached in `cache`: from the
    listing of its schema dbt made when this invocation started while this invocation has not
    changed it (adapter.cdc_listed_table_properties), else from the session's catalog
    (adapter.cdc_read_table_properties) or, where that cannot answer, `show tblproperties`. -#}
{%- macro cdc_table_properties(relation, cache={}) -%}
    {%- set key = relation | string -%}
    {%- if key not in cache -%}
        {%- set found = {} -%}
        {%- set existing = load_relation(relation) -%}
        {%- set listed = adapter.cdc_listed_table_properties(existing) if existing is not none else none -%}
        {%- if listed is not none -%}
            {%- do found.update(listed) -%}
        {%- elif existing is not none -%}
            {%- set read = adapter.cdc_read_table_properties(existing) -%}
            {%- if read is not none -%}
                {%- do found.update(read) -%}
            {%- else -%}
                {%- for row in run_query('show tblproperties ' ~ relation).rows -%}
                    {%- do found.update({row[0]: row[1]}) -%}
                {%- endfor -%}
            {%- endif -%}
        {%- endif -%}
        {%- do cache.update({key: found}) -%}
    {%- endif -%}
    {{ return(cache[key]) }}
{%- endmacro -%}


{#- After this invocation changed `relation` (its data or properties): drop its cached
    properties, and never take them from the schema listing again in this invocation. -#}
{%- macro cdc_forget_properties(relation) -%}
    {%- do cdc_run_properties().pop(relation | string, none) -%}
    {%- do adapter.cdc_properties_changed(relation) -%}
{%- endmacro -%}


{%- macro cdc_table_property(relation, key) -%}
    {{ return(cdc_table_properties(relation, cdc_run_properties()).get(key)) }}
{%- endmacro -%}


{#- The table properties cache of this invocation (adapter.cdc_properties_cache): every node
    of one `dbt build` shares it. -#}
{%- macro cdc_run_properties() -%}
    {{ return(adapter.cdc_properties_cache(invocation_id)) }}
{%- endmacro -%}


{#- Record, after a successful statement, this run's version and what it read. A view's
    version is the digest of what it reads (it holds no data of its own), and `view_sql` (its
    compiled SQL) is recorded as a digest (`cdc.sql`): a view whose SQL is the same again is
    not created again (cdc_run_unless_unchanged). A model that noted
    read-through marks while it compiled (cdc_note_read_through) records them too, unless
    `reads_complete` is false (an `--empty` run read no rows). -#}
{%- macro cdc_record_inputs(relation, digest, is_view=false, reads_complete=true, view_sql=none) -%}
    {%- do cdc_forget_properties(relation) -%}
    {%- set reads = cdc_run_properties().pop(cdc_pending_reads_key(relation), none) -%}
    {%- set recorded = {'cdc.version': (digest or invocation_id) if is_view else invocation_id,
                        'cdc.inputs': digest or ''} -%}
    {%- if is_view and view_sql is not none -%}
        {%- do recorded.update({'cdc.sql': cdc_view_sql_digest(view_sql)}) -%}
    {%- endif -%}
    {%- if reads is not none and reads_complete and not is_view -%}
        {%- do recorded.update({'cdc.read_through': cdc_encode_read_through(reads)}) -%}
    {%- endif -%}
    {%- do cdc_set_table_properties(relation, recorded, is_view) -%}
{%- endmacro -%}


{#- Record only the read-through marks `relation` noted while it compiled (a model that skips
    its statement because its read window holds nothing it selects): not its version, which
    says its data did not change. -#}
{%- macro cdc_record_read_through(relation) -%}
    {%- set reads = cdc_run_properties().pop(cdc_pending_reads_key(relation), none) -%}
    {%- if reads -%}
        {%- do cdc_forget_properties(relation) -%}
        {%- do cdc_set_table_properties(relation, {'cdc.read_through': cdc_encode_read_through(reads)}) -%}
    {%- endif -%}
{%- endmacro -%}


{#- Set `properties` (a dict of text) on table or view `relation`: through the session's
    catalog (adapter.cdc_write_table_properties: the statement's command without the
    statement), else with `alter table|view ... set tblproperties`. The caller forgets the
    relation's cached properties. -#}
{%- macro cdc_set_table_properties(relation, properties, is_view=false) -%}
    {%- if not adapter.cdc_write_table_properties(relation, properties, is_view) -%}
        {%- set assignments = [] -%}
        {%- for key, value in properties.items() -%}
            {%- do assignments.append(cdc_sql_string(key) | trim ~ ' = ' ~ cdc_sql_string(value) | trim) -%}
        {%- endfor -%}
        {%- call statement('cdc_set_table_properties') -%}
            alter {{ 'view' if is_view else 'table' }} {{ relation }} set tblproperties ({{ assignments | join(', ') }})
        {%- endcall -%}
    {%- endif -%}
{%- endmacro -%}


{#- The digest a view records of its SQL: its compiled SQL and the project's code version (an
    upgrade creates every view again, in case a table it reads changed its columns). -#}
{%- macro cdc_view_sql_digest(view_sql) -%}
    {{ return(local_md5(view_sql ~ '|' ~ adapter.cdc_code_version())) }}
{%- endmacro -%}


{#-
    Read-through marks: per source format, the landing time through which a table holds
    everything of that format its inputs hold (table property `cdc.read_through`, text
    `format=YYYY-MM-DD HH:MM:SS.ffffff;...`). They are written with the table's version, after
    its statement succeeded, so a run that failed or was killed leaves the last complete marks
    and the next run reads again from there. Landing tables carry the same mark as
    `cdc.committed_through` (every batch landed at or before it is committed).
-#}

{#- Note, while a model compiles, the marks it will have read through once its statement
    succeeds ({format id: normalized timestamp text}); cdc_record_inputs records them. -#}
{%- macro cdc_note_read_through(marks) -%}
    {%- do cdc_run_properties().update({cdc_pending_reads_key(this): marks}) -%}
{%- endmacro -%}


{%- macro cdc_pending_reads_key(relation) -%}
    {{ return('cdc.pending_read_through:' ~ relation) }}
{%- endmacro -%}


{#- The read-through marks of a table ({} when it has none). -#}
{%- macro cdc_read_through(relation) -%}
    {{ return(cdc_parse_read_through(cdc_table_property(relation, 'cdc.read_through'))) }}
{%- endmacro -%}


{#- Marks text to {format id: normalized timestamp}; malformed entries are ignored (the format
    then has no mark, and readers fall back to their own data). -#}
{%- macro cdc_parse_read_through(text) -%}
    {%- set marks = {} -%}
    {%- for item in (text or '').split(';') if '=' in item -%}
        {%- set parts = item.split('=', 1) -%}
        {%- set mark = cdc_normal_timestamp(parts[1]) -%}
        {%- if modules.re.fullmatch('[a-z][a-z0-9_]*', parts[0]) and mark is not none -%}
            {%- do marks.update({parts[0]: mark}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(marks) }}
{%- endmacro -%}


{%- macro cdc_encode_read_through(marks) -%}
    {%- set items = [] -%}
    {%- for format_id in marks | sort if modules.re.fullmatch('[a-z][a-z0-9_]*', format_id) -%}
        {%- set mark = cdc_normal_timestamp(marks[format_id]) -%}
        {%- if mark is not none -%}
            {%- do items.append(format_id ~ '=' ~ mark) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(items | join(';')) }}
{%- endmacro -%}


{#- `YYYY-MM-DD HH:MM:SS[.f...]` as `YYYY-MM-DD HH:MM:SS.ffffff` (fixed width, so marks
    compare as text), or none for anything else: the text becomes a SQL literal. -#}
{%- macro cdc_normal_timestamp(text) -%}
    {%- set found = modules.re.fullmatch(
        '([0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2})(?:[.]([0-9]{1,6}))?',
        (text or '') | trim) -%}
    {{ return(none if found is none else found.group(1) ~ '.' ~ (found.group(2) or '').ljust(6, '0')) }}
{%- endmacro -%}


{#- True while compiling a model that rule 2 will skip (nothing it reads changed since its last
    successful run), so that metadata queries made only to shape its SQL can be left out.
    Only under `dbt run` and `dbt build`: `compile` and `docs generate` always see the whole
    SQL. -#}
{%- macro cdc_inputs_unchanged() -%}
    {%- if not execute or flags.WHICH not in ('run', 'build') or flags.EMPTY or should_full_refresh()
          or model.language != 'sql' or not config.get('cdc_skip_when_unchanged', true) -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set existing = load_relation(this) -%}
    {%- if existing is none or existing.is_view != (config.get('materialized') == 'view') -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set digest = cdc_input_digest(model, cdc_model_code(), cdc_run_properties()) -%}
    {{ return(digest is not none and digest == cdc_table_property(this, 'cdc.inputs')) }}
{%- endmacro -%}


{#- The code a model's input digest covers: its own code and the project's code version. Not
    its compiled SQL: that differs between a first (full) and a later (incremental) run and
    holds marks read from the model itself. -#}
{%- macro cdc_model_code() -%}
    {{ return(model.raw_code ~ '|' ~ adapter.cdc_code_version()) }}
{%- endmacro -%}


{#- Run `materialization` (the adapter's own), unless the model has nothing new (see above). -#}
{%- macro cdc_run_unless_unchanged(materialization, is_view=false) -%}
    {%- if flags.EMPTY -%}
        {#- `--empty` builds from no rows: record a new version but no inputs, so the next real
            run of this model (and of everything reading it) does the work. -#}
        {%- set result = materialization() -%}
        {%- do cdc_record_inputs(this, none, is_view, reads_complete=false) -%}
        {{ return(result) }}
    {%- endif -%}
    {%- set existing = load_relation(this) -%}
    {#- A model whose result depends on the time of the build (config cdc_skip_when_unchanged=false)
        always runs. -#}
    {%- set can_skip = existing is not none and (existing.is_view if is_view else existing.is_table)
                       and not should_full_refresh() and model.language == 'sql'
                       and config.get('cdc_skip_when_unchanged', true) -%}
    {%- if can_skip and not is_view and cdc_nothing_in_window_marker() in compiled_code -%}
        {%- do cdc_record_read_through(this) -%}
        {%- do store_result('main', response='SKIP nothing new') -%}
        {{ return({'relations': [this]}) }}
    {%- endif -%}
    {%- if can_skip and not is_view and cdc_nothing_new_marker() in compiled_code -%}
        {#- A table built before versions existed gets one: what it holds is unchanged. -#}
        {%- if cdc_table_property(this, 'cdc.version') is none -%}
            {%- do cdc_record_inputs(this, none) -%}
        {%- endif -%}
        {%- do store_result('main', response='SKIP nothing new') -%}
        {{ return({'relations': [this]}) }}
    {%- endif -%}
    {%- set digest = cdc_input_digest(model, cdc_model_code(), cdc_run_properties()) if model.language == 'sql' else none -%}
    {%- if can_skip and digest is not none
          and digest == cdc_table_property(this, 'cdc.inputs') -%}
        {%- do store_result('main', response='SKIP nothing new') -%}
        {{ return({'relations': [this]}) }}
    {%- endif -%}
    {%- if can_skip and is_view and cdc_table_property(this, 'cdc.sql') == cdc_view_sql_digest(compiled_code) -%}
        {#- A view reads its tables when it is queried: with the same SQL as before it is not
            created again, only its new version (what it reads now) is recorded. -#}
        {%- do cdc_record_inputs(this, digest, is_view, view_sql=compiled_code) -%}
        {%- do store_result('main', response='OK view unchanged') -%}
        {{ return({'relations': [this]}) }}
    {%- endif -%}
    {%- set result = materialization() -%}
    {%- do cdc_record_inputs(this, digest, is_view, view_sql=compiled_code if is_view else none) -%}
    {{ return(result) }}
{%- endmacro -%}


{% materialization incremental, adapter='spark_cdc', supported_languages=['sql', 'python'] -%}
    {#- incremental_insert.sql: an insert straight from the model's query where it can -#}
    {{ return(cdc_run_unless_unchanged(cdc_incremental_materialization)) }}
{%- endmaterialization %}


{% materialization view, adapter='spark_cdc' -%}
    {{ return(cdc_run_unless_unchanged(materialization_view_spark, is_view=true)) }}
{%- endmaterialization %}


{% materialization table, adapter='spark_cdc', supported_languages=['sql', 'python'] -%}
    {{ return(cdc_run_unless_unchanged(materialization_table_spark)) }}
{%- endmaterialization %}


{#-
    Data tests on a `dbt build` with nothing new: a test that already passed or warned on
    exactly the data it checks (same versions of every model it reads, same compiled SQL, same
    severity and thresholds) is not run again, and gives the same answer without a query: a
    PASS (adapter response code `cdc_already_passed`) or a WARN with the same number of
    failures (`cdc_already_warned`: a warning stays visible on every build until its data or
    code changes). Outcomes are remembered at the end of each invocation
    (cdc_remember_passed_tests, an on-run-end hook) as table properties `cdc.passed.<test>` of
    the test's first model or seed (a seed's tests then cost nothing until its file changes:
    its table is reloaded without them; an ephemeral model's tests: cdc_test_home).
    `--vars '{cdc_full_checks: true}'` runs every test regardless; `dbt test` alone, tests
    reading a source without a committed mark (a user's own raw table), failed tests and tests
    never run always run.
-#}
{%- macro cdc_test_home(node) -%}
    {#- The first stored parent. A test of an ephemeral model (no table of its own) keeps its
        memory with the first stored model that model reads, or, when it reads only sources,
        with the first stored model that reads it (the memory's place, not its inputs). -#}
    {%- set pending = node.depends_on.nodes | sort -%}
    {%- set ephemeral = [] -%}
    {%- for _ in range(1000) if pending -%}
        {%- set parent = graph.nodes.get(pending.pop(0)) -%}
        {%- if parent is not none and (parent.resource_type == 'seed'
              or (parent.resource_type == 'model'
                  and parent.config.materialized in ('table', 'incremental', 'view'))) -%}
            {{ return(parent) }}
        {%- elif parent is not none and parent.resource_type == 'model'
                 and parent.config.materialized == 'ephemeral' -%}
            {%- do ephemeral.append(parent.unique_id) -%}
            {%- do pending.extend(parent.depends_on.nodes | sort) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for unique_id in graph.nodes | sort if ephemeral -%}
        {%- set reader = graph.nodes[unique_id] -%}
        {%- if reader.resource_type == 'model' and reader.config.materialized in ('table', 'incremental', 'view')
              and reader.depends_on.nodes | select('in', ephemeral) | list -%}
            {{ return(reader) }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(none) }}
{%- endmacro -%}


{%- macro cdc_test_memory_key(node) -%}
    {{ return('cdc.passed.' ~ local_md5(node.unique_id)[:16]) }}
{%- endmacro -%}


{#- What a test's outcome depends on besides the data: its SQL, its severity and thresholds. A
    singular test that checks only what is new since it last passed (checked_since.sql)
    compiles its marks into its SQL: its own code and the project's code version stand for it
    instead. A generic column check keeps its marks out of its SQL (checks_together.sql), and
    notes them only after this lookup: its compiled SQL stands for it, at record and lookup. -#}
{%- macro cdc_test_code(node, compiled_code) -%}
    {%- set generic = node.test_metadata is defined and node.test_metadata -%}
    {%- set code = node.raw_code ~ '|' ~ adapter.cdc_code_version()
                   if cdc_checks_since_last_pass(node) and not generic else compiled_code -%}
    {{ return(code ~ '|' ~ node.config.severity ~ '|' ~ node.config.warn_if ~ '|' ~ node.config.error_if) }}
{%- endmacro -%}


{#- A remembered outcome: the digest alone for a pass, `<digest>:warn:<failures>` for a warning. -#}
{%- macro cdc_encode_test_memory(digest, failures) -%}
    {{ return(digest if failures == 0 else digest ~ ':warn:' ~ failures) }}
{%- endmacro -%}


{#- The number of failures `node` had on exactly these inputs (0: it passed), or none when it
    must run. -#}
{%- macro cdc_test_remembered_failures(node, compiled_code) -%}
    {%- if var('cdc_full_checks', false) or flags.WHICH != 'build' -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set home = cdc_test_home(node) -%}
    {%- if home is none -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set properties = cdc_run_properties() -%}
    {%- set digest = cdc_input_digest(node, cdc_test_code(node, compiled_code), properties) -%}
    {%- set remembered = cdc_table_properties(cdc_node_relation(home), properties).get(cdc_test_memory_key(node)) -%}
    {%- if digest is none or remembered is none -%}
        {{ return(none) }}
    {%- elif remembered == digest -%}
        {{ return(0) }}
    {%- endif -%}
    {%- set warned = modules.re.fullmatch(digest ~ ':warn:([1-9][0-9]*)', remembered) -%}
    {{ return(warned.group(1) | int if warned else none) }}
{%- endmacro -%}


{#- Queue table property `key` = `memory` of a test's home model `home` (in `updates`, by
    relation; `kinds`: table or view), unless it holds that already (`properties`: the
    invocation's cache). cdc_remember_passed_tests writes the queue. -#}
{%- macro cdc_queue_test_memory(updates, kinds, home, key, memory, properties) -%}
    {%- set relation = cdc_node_relation(home) -%}
    {%- if cdc_table_properties(relation, properties).get(key) != memory -%}
        {%- do updates.setdefault(relation | string, {}).update({key: memory}) -%}
        {%- do kinds.update({relation | string: 'view' if home.config.materialized == 'view' else 'table'}) -%}
    {%- endif -%}
{%- endmacro -%}


{#- Remember the outcome of every test that passed or warned, and the new marks of the tests
    that check only what is new since they last passed (on-run-end). The table
    properties come from this invocation's cache: the versions the tests saw (a model that ran
    in this invocation dropped its entry when it recorded its new version). -#}
{%- macro cdc_remember_passed_tests(results) -%}
    {%- if not execute or flags.EMPTY -%}
        {{ return('') }}
    {%- endif -%}
    {%- set properties = cdc_run_properties() -%}
    {%- set updates = {} -%}
    {%- set kinds = {} -%}
    {%- for result in results
          if result.node.resource_type == 'test' and (result.status | string) in ('pass', 'warn') -%}
        {%- set home = cdc_test_home(result.node) -%}
        {%- set digest = cdc_input_digest(result.node, cdc_test_code(result.node, result.node.compiled_code), properties)
                         if home is not none else none -%}
        {%- set failures = (result.failures or 0) if (result.status | string) == 'warn' else 0 -%}
        {%- if digest is not none and ((result.status | string) == 'pass' or failures > 0) -%}
            {%- do cdc_queue_test_memory(updates, kinds, home, cdc_test_memory_key(result.node),
                                         cdc_encode_test_memory(digest, failures), properties) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do cdc_checked_marks_updates(results, properties, updates, kinds) -%}
    {%- for relation, assignments in updates.items() -%}
        {%- do properties.pop(relation, none) -%}
        {%- do adapter.cdc_properties_changed(relation) -%}
        {%- do cdc_set_table_properties(relation, assignments, kinds[relation] == 'view') -%}
    {%- endfor -%}
    {{ return('') }}
{%- endmacro -%}


{% materialization test, adapter='spark_cdc' -%}
    {%- set remembered = cdc_test_remembered_failures(model, compiled_code) -%}
    {%- if remembered is not none -%}
        {#- no query: the adapter builds the one-row answer (the remembered failures) -#}
        {%- set answer = adapter.cdc_already_passed_result(failures=remembered) -%}
        {%- do store_result('main', response=answer[0], agate_table=answer[1]) -%}
        {{ return({'relations': []}) }}
    {%- endif -%}
    {%- if cdc_checked_together(model) == 0 -%}
        {#- counted 0 with the model's other column checks (checks_together.sql) -#}
        {%- set answer = adapter.cdc_already_passed_result('cdc_checked_together') -%}
        {%- do store_result('main', response=answer[0], agate_table=answer[1]) -%}
        {{ return({'relations': []}) }}
    {%- endif -%}
    {{ return(materialization_test_default()) }}
{%- endmaterialization %}
