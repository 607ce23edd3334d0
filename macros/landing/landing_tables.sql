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


{% macro landing_is_user_table(format_id) %}
    {%- set override = var('cdc_sources', {}).get(format_id, {}) -%}
    {{- return('schema' in override or 'identifier' in override) -}}
{% endmacro %}


{% macro create_landing_tables() %}
    {% set statements = ['set spark.sql.mapKeyDedupPolicy = LAST_WIN'] %}
    {% do statements.append('create schema if not exists ' ~ var('cdc_landing_schema')) %}
    {% for format_id in cdc_enabled_formats() %}
        {% if not landing_is_user_table(format_id) %}
            {% set columns = [] %}
            {% for name, type, _ in landing_table_columns() %}
                {% do columns.append(name ~ ' ' ~ type) %}
            {% endfor %}
            {% do statements.append(
                'create table if not exists ' ~ landing_relation_name(format_id)
                ~ ' (' ~ columns | join(', ') ~ ') using parquet'
            ) %}
        {% endif %}
    {% endfor %}
    {# Spark runs one statement per call: run them here (hook and run-operation alike). #}
    {% if execute %}
        {% for statement in statements %}
            {% do run_query(statement) %}
        {% endfor %}
        {% do cdc_add_missing_landing_columns() %}
    {% endif %}
{% endmacro %}


{#
    Adds `landing_added_columns()` to landing tables created before them. One `limit 0` select
    over all landing tables reads their columns (catalog metadata, no Spark job): when each
    added column appears once per table nothing is missing, the common case; otherwise each
    table is looked at on its own.
#}
{% macro cdc_add_missing_landing_columns() %}
    {% set tables = [] %}
    {% for format_id in cdc_enabled_formats() if not landing_is_user_table(format_id) %}
        {% do tables.append(landing_relation_name(format_id)) %}
    {% endfor %}
    {% if not tables %}
        {{ return(none) }}
    {% endif %}
    {% set empty_reads = [] %}
    {% for table in tables %}
        {% do empty_reads.append('(select * from ' ~ table ~ ' limit 0) as landing_' ~ loop.index) %}
    {% endfor %}
    {% set present = run_query('select * from ' ~ empty_reads | join(' cross join ')).column_names | map('lower') | list %}
    {% set complete = [] %}
    {% for name in landing_added_columns() if present | select('equalto', name) | list | length == tables | length %}
        {% do complete.append(name) %}
    {% endfor %}
    {% if complete | length == landing_added_columns() | length %}
        {{ return(none) }}
    {% endif %}
    {% set types = {} %}
    {% for name, type, _ in landing_table_columns() %}
        {% do types.update({name: type}) %}
    {% endfor %}
    {% for table in tables %}
        {% set columns = run_query('select * from ' ~ table ~ ' limit 0').column_names | map('lower') | list %}
        {% set missing = [] %}
        {% for name in landing_added_columns() if name not in columns %}
            {% do missing.append(name ~ ' ' ~ types[name]) %}
        {% endfor %}
        {% if missing %}
            {% do run_query('alter table ' ~ table ~ ' add columns (' ~ missing | join(', ') ~ ')') %}
        {% endif %}
    {% endfor %}
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
