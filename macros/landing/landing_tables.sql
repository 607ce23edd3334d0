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
    ]) }}
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
    {% endif %}
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
            cast({{ mapped.get(name, name) }} as {{ type }}) as {{ name }},
            {%- endfor %}
            '{{ landing_relation_name(format_id) }}' as raw_relation
        from {{ source('landing', cdc_format(format_id)['landing_table']) }}
        {%- if read_plan is not none and (read_plan.mark is not none or read_plan.through is not none) %}
        where {{ staging_read_filter("cast(" ~ mapped.get('landed_at', 'landed_at') ~ " as timestamp)", read_plan) }}
        {%- endif %}
    ) as mapped
{% endmacro %}
