{#
    Landing tables: one row per raw message, as written by `cdc-pipeline land`.
    The column list is declared here once; the landing tool creates tables through
    `create_landing_tables` (dbt run-operation) and every staging model reads them through
    `landed_messages`, which also maps a user's own raw table onto the same columns.
#}
{% macro landing_table_columns() %}
    {{ return([
        ('raw_value', 'string', 'The raw message: JSON text, or Base64 of a binary message.'),
        ('stream_name', 'string', 'The stream the message came from (file landing: --stream, default the format id; Kafka: topic/partition).'),
        ('origin', 'string', 'Where the message was read: landing file path or Kafka topic.'),
        ('origin_partition', 'int', 'Kafka partition; null for files.'),
        ('origin_offset', 'bigint', 'Line number in the file (1-based) or Kafka offset.'),
        ('origin_timestamp', 'timestamp', 'Kafka message timestamp; null for files.'),
        ('landed_at', 'timestamp', 'When the message landed (UTC); the same for a whole landing batch.'),
        ('landing_batch_id', 'string', 'Identifier of the landing batch.'),
        ('message_key', 'string', 'The Kafka record key as text (JSON for Debezium), from a consumer dump with keys or a mapped Kafka sink table; null when only values were landed.'),
    ]) }}
{% endmacro %}


{#
    Landing columns added after the first release: a landing table created before gets them
    (`alter table ... add columns`), and a mapped table of your own may leave them out (null).
#}
{% macro landing_added_columns() %}
    {{ return(['message_key']) }}
{% endmacro %}


{% macro landing_relation_name(format_id) %}
    {%- set override = var('cdc_sources', {}).get(format_id, {}) -%}
    {{- return(override.get('schema', var('cdc_landing_schema')) ~ '.'
               ~ override.get('identifier', cdc_format(format_id)['landing_table'])) -}}
{% endmacro %}


{#
    A format's project landing table as a relation (schema `cdc_landing_schema`), for lookups
    of its properties and for dbt's relation cache; not source(), which an `--empty` run
    renders as a subquery.
#}
{% macro landing_table_relation(format_id) %}
    {{ return(api.Relation.create(
        schema=var('cdc_landing_schema'), identifier=cdc_format(format_id)['landing_table'], type='table')) }}
{% endmacro %}


{% macro landing_is_user_table(format_id) %}
    {%- set override = var('cdc_sources', {}).get(format_id, {}) -%}
    {{- return('schema' in override or 'identifier' in override) -}}
{% endmacro %}


{#
    Creates the landing schema and every enabled format's own landing table that is missing
    (one `show table extended` says which), and adds `landing_added_columns()` to tables
    created before them. A user's own raw tables (`cdc_sources`) are left alone.

    A table is created committed through `landing_created_mark()`: it holds no batch, so
    every batch it will hold is committed through that mark (cdc-pipeline land raises it after
    each batch). A format enabled but never landed then has a version and a read-through mark
    like any other, and a build skips its models without a query (docs/operations.md). A table
    created before that, still without a mark, gets it while it holds no row; one with rows
    and no mark (landed before marks were kept) is read whole, as before.
#}
{% macro create_landing_tables() %}
    {# Spark runs one statement per call: run them here (hook and run-operation alike). #}
    {% if not execute %}
        {{ return(none) }}
    {% endif %}
    {#- (the embedded and cluster profiles give the session it: no statement then) -#}
    {% if not adapter.cdc_session_setting_is('spark.sql.mapKeyDedupPolicy', 'LAST_WIN') %}
        {% do run_query('set spark.sql.mapKeyDedupPolicy = LAST_WIN') %}
    {% endif %}
    {#- one listing says which tables exist and, in each description, which columns and
        properties they have: no `limit 0` select per table (cdc_add_missing_landing_columns).
        dbt keeps it for the invocation's later lookups of landing tables (cdc_list_relations);
        what this hook creates or alters it tells dbt's cache. -#}
    {% set listed = adapter.cdc_list_relations(var('cdc_landing_schema')) %}
    {% if listed is none %}
        {% do adapter.create_schema(api.Relation.create(schema=var('cdc_landing_schema'))) %}
    {% endif %}
    {% set existing = {} %}
    {% for relation in listed or [] %}
        {% do existing.update({relation.identifier | lower: relation.information or ''}) %}
    {% endfor %}
    {% set columns = [] %}
    {% for name, type, _ in landing_table_columns() %}
        {% do columns.append(name ~ ' ' ~ type) %}
    {% endfor %}
    {% for format_id in cdc_enabled_formats() if not landing_is_user_table(format_id) %}
        {% set table = landing_relation_name(format_id) %}
        {% set relation = landing_table_relation(format_id) %}
        {% set description = existing.get(cdc_format(format_id)['landing_table'] | lower, none) %}
        {% if description is not none %}
            {% if cdc_add_missing_landing_columns(table, description) %}
                {% do cdc_forget_properties(relation) %}
            {% endif %}
            {% if 'cdc.committed_through=' not in description
                  and not run_query('select ' ~ landing_has_rows(format_id)).rows[0][0] %}
                {% do cdc_set_table_properties(table, {'cdc.committed_through': landing_created_mark()}) %}
                {% do cdc_forget_properties(relation) %}
            {% endif %}
        {% else %}
            {% do run_query('create table if not exists ' ~ table ~ ' (' ~ columns | join(', ') ~ ') using parquet'
                            ~ " tblproperties ('cdc.committed_through' = '" ~ landing_created_mark() ~ "')") %}
            {% do adapter.cdc_cache_created(relation) %}
            {% do cdc_forget_properties(relation) %}
        {% endif %}
    {% endfor %}
{% endmacro %}


{#
    The committed mark of a landing table that holds no batch yet: before any landing time
    (landing stamps each batch with the time it lands), so no row is at or before it.
#}
{% macro landing_created_mark() %}
    {{ return('1970-01-01 00:00:00.000000') }}
{% endmacro %}


{# Adds `landing_added_columns()` to a landing table created before them. `description`: the
   table's `show table extended` text; when its schema lists every added column (a top-level
   line ` |-- name: type`) nothing is asked, else a `limit 0` select reads the columns from the
   catalog (no Spark job). #}
{% macro cdc_add_missing_landing_columns(table, description=none) %}
    {% set listed = [] %}
    {% for name in landing_added_columns() if description and ('\n |-- ' ~ name ~ ': ') in description %}
        {% do listed.append(name) %}
    {% endfor %}
    {% if listed | length == landing_added_columns() | length %}
        {{ return(false) }}
    {% endif %}
    {% set present = run_query('select * from ' ~ table ~ ' limit 0').column_names | map('lower') | list %}
    {% set types = {} %}
    {% for name, type, _ in landing_table_columns() %}
        {% do types.update({name: type}) %}
    {% endfor %}
    {% set missing = [] %}
    {% for name in landing_added_columns() if name not in present %}
        {% do missing.append(name ~ ' ' ~ types[name]) %}
    {% endfor %}
    {% if missing %}
        {% do run_query('alter table ' ~ table ~ ' add columns (' ~ missing | join(', ') ~ ')') %}
    {% endif %}
    {{ return(missing | length > 0) }}
{% endmacro %}


{#
    The landed messages of one format in the standard landing columns, plus `message_id`.
    With a read plan (staging_read_plan) only the batches the plan names are read; the filter
    is on a literal landing time, so Parquet skips the files of older batches unread.
#}
{% macro landed_messages(format_id, read_plan=none) %}
    {%- set override = var('cdc_sources', {}).get(format_id, {}) -%}
    {%- set mapped = override.get('columns', {}) -%}
    select
        sha2(concat_ws('|', raw_relation, origin, cast(origin_partition as string), cast(origin_offset as string)), 256) as message_id,
        mapped.*
    from (
        select
            {%- for name, type, _ in landing_table_columns() %}
            {%- set default = 'null' if landing_is_user_table(format_id) and name in landing_added_columns() else name %}
            cast({{ mapped.get(name, default) }} as {{ type }}) as {{ name }},
            {%- endfor %}
            '{{ landing_relation_name(format_id) }}' as raw_relation
        from {{ source('landing_' ~ format_id, cdc_format(format_id)['landing_table']) }}
        {%- if read_plan is not none and (read_plan.mark is not none or read_plan.through is not none) %}
        where {{ staging_read_filter("cast(" ~ mapped.get('landed_at', 'landed_at') ~ " as timestamp)", read_plan) }}
        {%- endif %}
    ) as mapped
{% endmacro %}
