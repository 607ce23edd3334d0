{#
    Format `dts_avro`: Alibaba Cloud DTS records in the DTS Avro format, one
    schemaless binary Avro `Record` (namespace com.alibaba.dts.formats.avro) per Kafka message,
    landed as Base64 text. Mapping: docs/formats/dts_avro.md.

    SQL cannot read binary Avro: the Python UDF `cdc_decode_dts_avro` (docs/udfs.md) decodes
    each record with the schema python_udfs/decoders/dts_record.avsc and turns every image
    value (the union of Integer, Character, Decimal, Float, Timestamp, DateTime,
    TimestampWithTimeZone, geometries, objects and EmptyObject) into canonical text; the
    staging model (with the macros below) reads its JSON document onto the staging contract.

    What every format file defines (docs/adding-a-format.md):
      <format>__message_schema()     the from_json schema of one (decoded) message
      (the flow itself, landed messages -> staging contract, is the staging model
       models/staging/dts_avro/stg_dts_avro__events.sql)
#}

{# The JSON document cdc_decode_dts_avro returns for one record. #}
{% macro dts_avro__message_schema() -%}
struct<
    version: int,
    id: bigint,
    sourceTimestamp: bigint,
    sourcePosition: string,
    safeSourcePosition: string,
    sourceTxid: string,
    sourceType: string,
    sourceSystem: string,
    sourceVersion: string,
    operation: string,
    objectName: string,
    databaseName: string,
    schemaName: string,
    tableName: string,
    processTimestamps: array<bigint>,
    bornTimestamp: bigint,
    tags: map<string, string>,
    primaryKeys: array<string>,
    fields: array<struct<name: string, dataTypeNumber: int>>,
    fieldsText: string,
    before: map<string, string>,
    after: map<string, string>,
    hasBeforeImages: boolean,
    hasAfterImages: boolean,
    ddlText: string,
    columnTypes: map<string, string>,
    valueError: string
>
{%- endmacro %}


{# Operations whose sourceTimestamp is proof of life of the source (stream_progress). #}
{% macro dts_avro__timed_control_operations() %}
    {{ return(['BEGIN', 'COMMIT', 'ROLLBACK', 'ABORT', 'HEARTBEAT', 'CHECKPOINT']) }}
{% endmacro %}


{# DDL text without leading blanks and /* … */ comments. #}
{% macro dts_avro__ddl_statement(ddl_text) -%}
    regexp_replace(coalesce({{ ddl_text }}, ''), '^(\\s*/\\*.*?\\*/)*\\s*', '')
{%- endmacro %}


{#
    Canonical operation of a DDL record from its text: `truncate` for TRUNCATE, `drop` for
    DROP TABLE (both clear the table when it is known), else the statement's first word in
    lower case (`create`, `alter`, `rename`, …), else `ddl`.
#}
{% macro dts_avro__ddl_operation(ddl_text) -%}
    case
        when {{ dts_avro__ddl_statement(ddl_text) }} rlike '(?i)^truncate\\b' then 'truncate'
        when {{ dts_avro__ddl_statement(ddl_text) }} rlike '(?i)^drop\\s+table\\b' then 'drop'
        else coalesce(nullif(lower(regexp_extract({{ dts_avro__ddl_statement(ddl_text) }}, '^([A-Za-z]+)', 1)), ''), 'ddl')
    end
{%- endmacro %}
