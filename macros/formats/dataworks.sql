{#
    Format `dataworks`: DataWorks / DataHub Blob JSON ("StreamX" format), the same JSON that
    DataWorks writes to Kafka. Mapping: docs/formats/dataworks.md.

    What every format file defines (docs/adding-a-format.md):
      <format>__message_schema()     the from_json schema of one message
      (the flow itself, landed messages -> staging contract, is the staging model
       models/staging/dataworks/stg_dataworks__events.sql)
#}

{#
    The timestamp fields are read as text: a JSON number and a quoted number
    ("eventTime": "1605339932000") are both accepted, and converted by epoch_to_timestamp.
#}
{% macro dataworks__message_schema() -%}
struct<
    schema: struct<
        dataColumn: array<struct<name: string, type: string>>,
        primaryKey: array<string>,
        source: struct<dbType: string, dbVersion: string, dbName: string, schemaName: string, tableName: string>
    >,
    payload: struct<
        before: struct<dataColumn: map<string, string>>,
        after: struct<dataColumn: map<string, string>>,
        sequenceId: string,
        scn: string,
        op: string,
        timestamp: struct<eventTime: string, systemTime: string, checkpointTime: string>,
        ddl: struct<text: string, ddlMeta: string>
    >,
    version: string,
    _corrupt_record: string
>
{%- endmacro %}


{#
    Canonical text of an image: DATE values (documented as 13-digit epoch milliseconds; a
    value that is no year 0001-9999 in ms is read as µs, then ns) become UTC timestamp text;
    a DATE value that is no such number keeps its text. Every other value keeps its JSON text
    (BYTES stay Base64). `vendor_types` holds upper-case type names.
#}
{% macro dataworks__canonical_image(image, vendor_types) -%}
    transform_values(
        {{ image }},
        (column_name, value) -> case
            when {{ vendor_types }}[column_name] = 'DATE'
                then coalesce(
                    date_format({{ epoch_to_timestamp('value', 'ms_or_finer') }}, 'yyyy-MM-dd HH:mm:ss.SSS'),
                    value
                )
            else value
        end
    )
{%- endmacro %}


{#
    An event time (documented as 13-digit epoch ms; 10-digit seconds, 16-digit µs and
    19-digit ns are read by magnitude). Values <= 0 (full-load records carry -1), text that
    is no number and times outside the years 0001-9999 are null.
#}
{% macro dataworks__event_time(field) -%}
    case
        when try_cast(trim({{ field }}) as decimal(38, 6)) > 0 then {{ epoch_to_timestamp(field, 'auto') }}
    end
{%- endmacro %}
