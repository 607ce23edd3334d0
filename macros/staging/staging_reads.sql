{#
    How a staging model reads its landing table. Decided when the model runs, from small
    metadata queries, so that a run with nothing new parses nothing and a batch is parsed once:

    - on the project's own landing table, only committed batches: those landed at or before
      the table's `cdc.committed_through` (written by landing after each batch's insert, so a
      build beside a landing never sees part of a batch). The staging table records that mark
      as its read-through mark (`cdc.read_through`), from which every model after it reads;
    - a full build, or a staging table with no rows yet: every (committed) landed message;
    - incremental, on the project's own landing table, when the last batch the model staged
      (its greatest `landed_at`, the mark) is complete: only messages landed strictly after the
      mark. Landing writes a batch in one insert with a `landed_at` greater than any before, and
      every message gives at least one event, exactly one with `row_index` 0, so "complete"
      is: messages landed at the mark = events at the mark with `row_index` 0. Usually the
      mark is still the model's own read-through mark, recorded by the run that staged that
      batch whole, and one statement (staging_held_batch_is_last) says so without counting;
    - otherwise (a user's own raw table, where `landed_at` may repeat across deliveries, or a
      batch cut short by a killed run): messages landed at or after the mark whose
      `message_id` the model does not hold yet (`new_landed_messages`);
    - a format enabled but never landed: its landing table is created committed through
      `landing_created_mark()` (create_landing_tables), so the marks say nothing is new.
      Incremental, with no row staged yet, on a project landing table that still has no
      committed mark (the hook did not run) and no row: nothing new, so no statement. One
      with rows but no mark (tables landed before marks existed) is read whole, as before.

    Returns {'mark': SQL timestamp literal or none, 'strict': true when nothing at the mark
    needs to be read again, 'through': SQL timestamp literal of the committed mark or none (a
    user's own table, or a landing table no batch was recorded on), 'nothing_new': true when,
    besides, nothing committed landed after the mark (the model then selects no rows without
    planning its parsing at all: a run with nothing new costs these metadata queries, not
    seconds of query planning)}. At parse time: mark and through none.
    When the staging table's own read-through mark (recorded after its last complete run)
    equals the landing table's committed mark, nothing is new and no query runs at all: table
    properties answer it.
#}
{% macro staging_read_plan(format_id) %}
    {%- set plan = {'mark': none, 'strict': false, 'through': none, 'nothing_new': false} -%}
    {%- if cdc_in_unit_test() -%}
        {#- a unit test's given landed rows are all read, as on a full build -#}
        {{ return(plan) }}
    {%- endif -%}
    {%- set committed = none -%}
    {%- set new_messages = none -%}
    {%- if execute and not landing_is_user_table(format_id) -%}
        {%- set committed = landing_committed_through(format_id) -%}
        {%- if committed is not none -%}
            {%- do plan.update({'through': "timestamp'" ~ committed ~ "'"}) -%}
        {%- endif -%}
        {%- do cdc_note_read_through({format_id: committed} if committed is not none else {}) -%}
    {%- endif -%}
    {%- set held = cdc_read_through(this).get(format_id) if execute and is_incremental() else none -%}
    {%- if held is not none and held == committed -%}
        {#- The last complete run read through the committed mark, and no batch has been
            committed since (the mark changes with every one): metadata alone says nothing
            is new, no Spark job needed. -#}
        {%- do plan.update({'strict': true, 'nothing_new': true}) -%}
        {%- set new_messages = 0 -%}
    {%- elif execute and is_incremental() and held is not none and not landing_is_user_table(format_id)
          and staging_held_batch_is_last(format_id, held, plan) -%}
        {#- the common case, one statement: the plan and new_messages are set -#}
        {%- set new_messages = plan.pop('new_messages') -%}
    {%- elif execute and is_incremental() -%}
        {#- a project landing table no batch was committed on: whether it holds any row, in
            the same statement (landing_has_rows) -#}
        {%- set probe_landing = committed is none and not landing_is_user_table(format_id) -%}
        {%- set row = run_query(
            "select cast(max(landed_at) as string) as mark"
            ~ (", " ~ landing_has_rows(format_id) ~ " as landed_any" if probe_landing else "")
            ~ " from " ~ this
        ).rows[0] -%}
        {%- set found = row[0] -%}
        {%- if found is none and probe_landing and not row[1] -%}
            {#- Nothing staged and nothing landed (a format enabled, never landed): nothing
                is new, as when marks say so. Without this the model would insert no rows on
                every build, 0.3-2.2 s each (bench/results/2026-12-06-eleventh/). -#}
            {%- do plan.update({'strict': true, 'nothing_new': true}) -%}
            {%- set new_messages = 0 -%}
        {%- elif found is not none -%}
            {%- set mark = "timestamp'" ~ found ~ "'" -%}
            {%- do plan.update({'mark': mark}) -%}
            {%- if not landing_is_user_table(format_id) -%}
                {#- one statement for the three counts: each is a filter on a literal
                    landing time, which Parquet answers mostly from file statistics -#}
                {%- set counts = run_query(
                    "select (select count(*) from " ~ landing_relation_name(format_id)
                    ~ " where landed_at = " ~ mark ~ ") as landed, "
                    ~ "(select count(*) from " ~ this ~ " where landed_at = " ~ mark
                    ~ " and row_index = 0) as staged, "
                    ~ landed_after_count(format_id, mark, plan) ~ " as newer"
                ).rows[0] -%}
                {%- do plan.update({'strict': counts[0] == counts[1]}) -%}
                {%- do plan.update({'nothing_new': plan.strict and counts[2] == 0}) -%}
                {#- a batch cut short is read again from its mark -#}
                {%- set new_messages = counts[2] + (0 if plan.strict else counts[0]) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endif -%}
    {#- known only when the plan counted what it reads: none on a full read or a user's table -#}
    {%- if execute -%}
        {%- do cdc_fit_codegen(format_id, new_messages) -%}
    {%- endif -%}
    {{ return(plan) }}
{% endmacro %}


{#
    staging_read_plan's common incremental case, in one statement: whether the model's
    greatest landing time is still `held`, its own read-through mark (normalized text), the
    landing time through which its last complete run read everything. Then the batch at that
    mark was staged whole by that run (a run cut short records no mark, and anything it wrote
    lies after the mark), so no count at the mark is needed: the read is strict and only the
    messages committed since are counted. The filter on `held` lets Parquet skip the files of
    every earlier batch. When true, updates `plan` (mark, strict, nothing_new, and
    new_messages, which the caller pops); when false (no row at or after `held`, or rows after
    it), `plan` is as it was and the caller asks as before.
#}
{% macro staging_held_batch_is_last(format_id, held, plan) %}
    {%- set mark = "timestamp'" ~ held ~ "'" -%}
    {%- set row = run_query(
        "select (select cast(max(landed_at) as string) as mark from " ~ this ~ " where landed_at >= " ~ mark
        ~ ") as mark, " ~ landed_after_count(format_id, mark, plan) ~ " as newer"
    ).rows[0] -%}
    {%- if row[0] is none or cdc_normal_timestamp(row[0] | string) != held -%}
        {{ return(false) }}
    {%- endif -%}
    {%- do plan.update({'mark': mark, 'strict': true, 'nothing_new': row[1] == 0, 'new_messages': row[1]}) -%}
    {{ return(true) }}
{% endmacro %}


{#
    The read plan's count of the messages committed after `mark` (a SQL timestamp literal): a
    scalar subquery over the format's landing table, bounded by the plan's committed mark
    (`through`) when it has one. Both read plan queries ask it (staging_read_plan,
    staging_held_batch_is_last).
#}
{% macro landed_after_count(format_id, mark, plan) -%}
    {{- "(select count(*) from " ~ landing_relation_name(format_id) ~ " where landed_at > " ~ mark
        ~ (" and landed_at <= " ~ plan.through if plan.through else "") ~ ")" -}}
{%- endmacro %}


{#
    Whether a format's landing table holds any row, as a SQL scalar subquery (true or false):
    one row read at most.
#}
{% macro landing_has_rows(format_id) -%}
    {{- "((select count(*) from (select 1 from " ~ landing_relation_name(format_id) ~ " limit 1)) > 0)" -}}
{%- endmacro %}


{#
    The landing time through which every batch of a format's project landing table is
    committed (its table property `cdc.committed_through`, normalized text), or none: a user's
    own table, a table no batch was recorded on, or parse time.
#}
{% macro landing_committed_through(format_id) %}
    {%- if not execute or landing_is_user_table(format_id) -%}
        {{ return(none) }}
    {%- endif -%}
    {{ return(cdc_normal_timestamp(cdc_table_property(landing_table_relation(format_id), 'cdc.committed_through'))) }}
{% endmacro %}


{#
    A read plan (for landed_messages) of every committed message of a format: what the
    accounting tests compare the models with. A batch whose commit is not recorded yet is
    still being landed, and no model has read it.
#}
{% macro committed_read_plan(format_id) %}
    {%- set committed = landing_committed_through(format_id) -%}
    {{ return({'mark': none, 'strict': false, 'nothing_new': false,
               'through': "timestamp'" ~ committed ~ "'" if committed is not none else none}) }}
{% endmacro %}


{#
    The SQL condition on a landing row's `landed_at` for a read plan (staging_read_plan):
    after the mark (`>` when strict, else `>=`) and at or before the committed mark, each
    part only when the plan has that mark; true for a plan with neither.
#}
{% macro staging_read_filter(landed_at, read_plan) -%}
    {%- set conditions = [] -%}
    {%- if read_plan is not none and read_plan.mark is not none -%}
        {%- do conditions.append(landed_at ~ (' > ' if read_plan.strict else ' >= ') ~ read_plan.mark) -%}
    {%- endif -%}
    {%- if read_plan is not none and read_plan.through is not none -%}
        {%- do conditions.append(landed_at ~ ' <= ' ~ read_plan.through) -%}
    {%- endif -%}
    {{- conditions | join(' and ') if conditions else 'true' -}}
{%- endmacro %}


{#
    The new messages of a staging model (inside parsed_landed_messages, or a model's own
    `new_messages` CTE): the landed messages of `format_id` the model has not staged yet, as
    its read plan (staging_read_plan) says. With a strict plan that is every message read (the
    read already starts after the mark). Otherwise messages at the mark may be staged
    already: they are dropped by `message_id`; and a user's own raw table may hold the same
    message twice (same lineage), of which the first landed copy is kept (the project's own
    landing tables hold each (file, line) once).
    When the plan found nothing new it selects no rows and carries the marker on which the
    model's materialization skips its statement (cdc_run_unless_unchanged): a run with
    nothing new plans no parsing.
#}
{% macro new_landed_messages(format_id, read_plan) -%}
    {%- set user_table = landing_is_user_table(format_id) %}
    select landed.*
    from (
        {%- if user_table %}
        select
            copies.*,
            row_number() over (partition by copies.message_id order by copies.landed_at) as copy_rank
        from ({{ landed_messages(format_id, read_plan) }}) as copies
        {%- else %}
        {{ landed_messages(format_id, read_plan) }}
        {%- endif %}
    ) as landed
    {%- if read_plan.mark is not none and not read_plan.strict %}
    left anti join (
        select staged.message_id
        from {{ this }} as staged
        where staged.landed_at >= {{ read_plan.mark }}
    ) as already_staged
        on landed.message_id = already_staged.message_id
    {%- endif %}
    {%- if read_plan.nothing_new %}
    where false {{ cdc_nothing_new_marker() }}
    {%- elif user_table %}
    where landed.copy_rank = 1
    {%- endif %}
{%- endmacro %}


{#
    The body of a staging model's `parsed` CTE, its import and parse steps: the messages the
    model has not staged yet (new_landed_messages), each parsed once. With `message_schema`
    (a Spark DDL schema) the struct `message`, from from_json; without one, the VARIANT
    `message_variant` (try_parse_json, for formats read by path) and `is_object`, whether the
    text is a JSON object (a scalar parses as a VARIANT too, and is no message).
#}
{% macro parsed_landed_messages(format_id, read_plan, message_schema=none) -%}
    select
        new_messages.*,
        {%- if message_schema is none %}
        try_parse_json(new_messages.raw_value) as message_variant,
        left(ltrim(new_messages.raw_value), 1) = '{' as is_object
        {%- else %}
        from_json(new_messages.raw_value, '{{ message_schema | replace("\n", " ") }}') as message
        {%- endif %}
    from ({{ new_landed_messages(format_id, read_plan) }}) as new_messages
{%- endmacro %}


{#
    The body of a staging model's `operation_codes` CTE: the format's rows of the seed
    cdc_operation_codes as (operation_code, code_event_class, code_operation), the names the
    model left-joins where it classifies its messages.
#}
{% macro operation_codes(format_id) -%}
    select
        vendor_code as operation_code,
        event_class as code_event_class,
        operation as code_operation
    from {{ ref('cdc_operation_codes') }}
    where source_format = {{ cdc_sql_string(format_id) }}
{%- endmacro %}


{#
    The body of a one-row CTE holding the format's type codes (seed cdc_type_codes, rows of
    `type_field`) as one map vendor type -> canonical type, in column `map_name`, for lambdas
    that type each column of a message.
    The map is a literal written from the seed's CSV file when the model is compiled: Spark
    folds a literal into the lambdas, while a map read from the seed table is looked up
    again for every column of every message (about 15% of Canal's staging on 1M messages,
    bench/results/2026-11-27-where-1m-canal-goes.md). The seed stays the model's parent, so
    an edited CSV still marks the model changed. A unit test reads its given rows instead.
#}
{% macro type_code_map(format_id, type_field, map_name) -%}
    {%- set seed_relation = ref('cdc_type_codes') -%}
    {%- set rows = cdc_seed_file_rows('cdc_type_codes') if execute and not cdc_in_unit_test() else none -%}
    {%- if rows is none %}
    select map_from_entries(collect_list(struct(vendor_type, canonical_type))) as {{ map_name }}
    from {{ seed_relation }}
    where source_format = {{ cdc_sql_string(format_id) }} and type_field = {{ cdc_sql_string(type_field) }}
    {%- else -%}
    {%- set pairs = [] -%}
    {%- for row in rows if row.source_format == format_id and row.type_field == type_field -%}
        {%- do pairs.append(cdc_sql_string(row.vendor_type) ~ ', ' ~ cdc_sql_string(row.canonical_type)) -%}
    {%- endfor -%}
    -- the rows of {{ seed_relation }} for this format and field, as written in its CSV file
    select
        {%- if pairs %}
        map({{ pairs | join(', ') }})
        {%- else %}
        cast(map() as map<string, string>)
        {%- endif %} as {{ map_name }}
    {%- endif -%}
{%- endmacro %}


{#
    A format's rows of the seed cdc_type_codes for one `type_field`, as a dict vendor type ->
    canonical type read from the seed's CSV when the model compiles, for a format that writes
    its type mapping into SQL as literals (a `case` per column: Debezium). The model refs the
    seed (`-- depends_on: {{ ref('cdc_type_codes') }}`), so an edited CSV marks it changed.
    Empty at parse time, where the SQL is not run.
#}
{% macro seed_type_codes(format_id, type_field) -%}
    {%- set codes = {} -%}
    {%- if execute -%}
        {%- for row in cdc_seed_file_rows('cdc_type_codes')
              if row.source_format == format_id and row.type_field == type_field -%}
            {%- do codes.update({row.vendor_type: row.canonical_type}) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(codes) }}
{%- endmacro %}


{#
    The rows of seed `seed_name`'s CSV file as mappings column -> text, read when a model is
    compiled (the file the seed table is loaded from; adapter method cdc_read_seed_rows).
#}
{% macro cdc_seed_file_rows(seed_name) -%}
    {%- set found = [] -%}
    {%- for node in (graph.get('nodes') or {}).values() if node.resource_type == 'seed' and node.name == seed_name -%}
        {%- do found.append(node.root_path ~ '/' ~ node.original_file_path) -%}
    {%- endfor -%}
    {%- if not found and cdc_in_unit_test() -%}
        {#- a unit test's context has no graph: the seed's file in the project's seeds/ -#}
        {%- do found.append('seeds/' ~ seed_name ~ '.csv') -%}
    {%- endif -%}
    {%- if not found -%}
        {{ exceptions.raise_compiler_error('no seed named ' ~ seed_name) }}
    {%- endif -%}
    {%- set lines = adapter.cdc_read_seed_rows(found[0]) -%}
    {%- set header = lines[0] -%}
    {%- set rows = [] -%}
    {%- for line in lines[1:] -%}
        {%- set row = {} -%}
        {%- for name in header -%}
            {%- do row.update({name: line[loop.index0] if loop.index0 < line | length else ''}) -%}
        {%- endfor -%}
        {%- do rows.append(row) -%}
    {%- endfor -%}
    {{ return(rows) }}
{%- endmacro %}


{#
    Fit Spark's generated code to this invocation's input (adapter method cdc_fit_codegen):
    off while the staging models that ran know how many messages they read and together read
    fewer than var `cdc_small_batch_messages`; as the profile says otherwise. Called by each
    staging model's read plan with its count (none: unknown). The models after staging run
    with what the last call decided; results are the same either way, only time differs.
#}
{% macro cdc_fit_codegen(format_id, new_messages) %}
    {%- if adapter.type() == 'spark_cdc' -%}
        {%- do adapter.cdc_fit_codegen(invocation_id, format_id, new_messages, var('cdc_small_batch_messages')) -%}
    {%- endif -%}
{% endmacro %}
