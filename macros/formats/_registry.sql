{#
    The registry of vendor formats: format id -> what the shared models need to know.
    Adding a format = one macro file in macros/formats/, one staging model folder, and one
    entry here (docs/adding-a-format.md). An unknown id is a compile error, never a guess.
#}
{#- Keys: staging_model, landing_table, payload, description; update_pairs_model for a format
    whose updates may arrive as two events; indexed_rows for a format whose message may hold
    several events, numbered by row_index (staged_event_columns, int_stream_batches). -#}
{% macro cdc_format_registry() %}
    {{ return({
        'dataworks': {
            'staging_model': 'stg_dataworks__events',
            'landing_table': 'raw_dataworks',
            'payload': 'json',
            'description': 'DataWorks / DataHub Blob JSON (StreamX format), also DataWorks to Kafka',
        },
        'datahub_tuple': {
            'staging_model': 'stg_datahub_tuple__events',
            'landing_table': 'raw_datahub_tuple',
            'payload': 'json',
            'description': 'DataHub Tuple topic records with _sequence_id_/_operation_type_ meta columns',
        },
        'canal': {
            'staging_model': 'stg_canal__events',
            'landing_table': 'raw_canal',
            'payload': 'json',
            'indexed_rows': true,
            'description': 'Canal FlatMessage JSON as written by DTS (and by Canal itself)',
        },
        'shareplex': {
            'staging_model': 'stg_shareplex__events',
            'landing_table': 'raw_shareplex',
            'payload': 'json',
            'description': 'SharePlex JSON as written by DTS',
        },
        'debezium': {
            'staging_model': 'stg_debezium__events',
            'landing_table': 'raw_debezium',
            'payload': 'json',
            'description': 'Debezium JSON envelope (with or without schema); Lindorm Debezium Format V2.0',
        },
        'datastream': {
            'staging_model': 'stg_datastream__events',
            'landing_table': 'raw_datastream',
            'update_pairs_model': 'stg_datastream__update_pairs',
            'payload': 'json',
            'description': 'Google Cloud Datastream events (JSON; Avro container files decoded at landing)',
        },
        'dts_avro': {
            'staging_model': 'stg_dts_avro__events',
            'landing_table': 'raw_dts_avro',
            'payload': 'avro',
            'description': 'DTS Avro Record (binary Avro, namespace com.alibaba.dts.formats.avro), landed as Base64 text',
        },
    }) }}
{% endmacro %}


{% macro cdc_format(format_id) %}
    {% set registry = cdc_format_registry() %}
    {% if format_id not in registry %}
        {{ exceptions.raise_compiler_error(
            "Unknown CDC format id '" ~ format_id ~ "'. Known ids: "
            ~ (registry.keys() | sort | join(', ')) ~ ". Check var('cdc_formats')."
        ) }}
    {% endif %}
    {{ return(registry[format_id]) }}
{% endmacro %}


{% macro cdc_enabled_formats() %}
    {% set enabled = var('cdc_formats') %}
    {#- Given as text (sqlfluff's dbt templater passes vars as text): a YAML list, or one id. -#}
    {% if enabled is string %}
        {% set parsed = fromyaml(enabled) %}
        {% set enabled = [parsed] if parsed is string else parsed %}
    {% endif %}
    {% for format_id in enabled %}
        {% do cdc_format(format_id) %}
    {% endfor %}
    {{ return(enabled) }}
{% endmacro %}
