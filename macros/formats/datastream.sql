{#
    Format `datastream`: Google Cloud Datastream events from MySQL, Oracle,
    PostgreSQL and SQL Server sources, JSON events as written to Cloud Storage / Pub/Sub, and
    the Avro variant (Avro container files are decoded at landing, one JSON line per record:
    python_udfs/pipeline/landing.py). Mapping: docs/formats/datastream.md.

    Values are read through Spark's VARIANT (`try_parse_json`), which keeps JSON numbers exact
    (decimals up to 38 digits) where `from_json` would round them through a double.

    What every format file defines (docs/adding-a-format.md):
      <format>__message_schema()     the typed view of one message
      (the flow itself, landed messages -> staging contract, is the staging model
       models/staging/datastream/stg_datastream__events.sql)
#}

{#
    The generic metadata of an event read as typed values. Timestamps, `sort_keys`, the
    source-specific metadata and the payload are read separately (they come as ISO text or
    epoch numbers, mixed-type arrays, and maps of VARIANT).
#}
{% macro datastream__message_schema() -%}
struct<
    stream_name: string,
    read_method: string,
    object: string,
    schema_key: string,
    uuid: string,
    source_metadata: struct<
        log_file: string, log_position: string,
        scn: string, row_id: string, rs_id: string, ssn: string,
        lsn: string, tx_id: string,
        change_type: string,
        database: string, table: string
    >
>
{%- endmacro %}


{#
    `read_method` prefix -> source system: the seed cdc_source_systems, rows `datastream`, read
    when the model compiles ({lower-cased prefix: system}; docs/formats/datastream.md).
#}
{% macro datastream__source_systems() %}
    {%- set systems = {} -%}
    {%- if execute -%}
        {%- for row in cdc_seed_file_rows('cdc_source_systems') if row.source_format == 'datastream' -%}
            {%- do systems.update({row.vendor_name | lower: row.source_system}) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(systems) }}
{% endmacro %}


{#
    Avro primitive and logical types (as landing writes them into `_avro_payload_types`) ->
    canonical column types: the seed cdc_type_codes, rows `datastream`/`avro`, read when the
    model compiles.
#}
{% macro datastream__avro_type_map() %}
    {{ return(seed_type_codes('datastream', 'avro')) }}
{% endmacro %}


{#
    A timestamp given as ISO text (`2019-11-07T07:37:16.808Z`, `2019-11-07T02:15:39`, with an
    offset, or with a space; no zone means UTC) or as an epoch number, JSON number or numeric
    text. Datastream documents epoch milliseconds; the magnitude tells seconds (< 1e11),
    milliseconds (< 1e14), microseconds (< 1e17) and nanoseconds apart. Null when neither.
#}
{% macro datastream__timestamp(variant_value) -%}
    {%- set text = "trim(cast(" ~ variant_value ~ " as string))" -%}
    {%- set number = "try_cast(" ~ text ~ " as decimal(38, 6))" -%}
    case
        when {{ variant_value }} is null or is_variant_null({{ variant_value }}) then null
        when {{ text }} rlike '^-?[0-9]{1,20}(\\.[0-9]+)?$' then
            case
                when abs({{ number }}) < 100000000000
                    then timestamp_micros(cast({{ number }} * 1000000 as bigint))
                when abs({{ number }}) < 100000000000000
                    then timestamp_micros(cast({{ number }} * 1000 as bigint))
                when abs({{ number }}) < 100000000000000000
                    then timestamp_micros(cast({{ number }} as bigint))
                else timestamp_micros(cast({{ number }} div 1000 as bigint))
            end
        when {{ text }} rlike '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then try_cast({{ text }} as timestamp)
    end
{%- endmacro %}


{# Text of a VARIANT value: strings unquoted, numbers exact, objects/arrays as JSON, null. #}
{% macro datastream__value_text(variant_value) -%}
    cast({{ variant_value }} as string)
{%- endmacro %}


{# Decimal text of a hexadecimal text (no `0x`), exact up to 30 hex digits. #}
{% macro datastream__hex_number(hex) -%}
    case
        when {{ hex }} rlike '^[0-9a-fA-F]{1,30}$' then cast(
            cast(conv(substr(lpad({{ hex }}, 30, '0'), 1, 15), 16, 10) as decimal(38, 0)) * 1152921504606846976
            + cast(conv(substr(lpad({{ hex }}, 30, '0'), 16, 15), 16, 10) as decimal(38, 0))
            as string
        )
    end
{%- endmacro %}


{#
    An LSN as decimal text of its value, so that LSNs order as numbers:
    PostgreSQL `16/B374D848` (high/low 32-bit hex), SQL Server `00000027:00000758:0005`
    (VLF:block:slot hex) or its 20 hex digits (with or without `0x`), a decimal number as is.
    `is_hex` (SQL boolean): the source writes bare LSNs in hex (SQL Server), so that
    `00000027000007580005` is not read as a decimal just because it has no letter.
#}
{% macro datastream__lsn_number(lsn, is_hex='false') -%}
    {%- set text = "regexp_replace(trim(" ~ lsn ~ "), '^0[xX]', '')" -%}
    case
        when {{ text }} rlike '^[0-9a-fA-F]{1,8}/[0-9a-fA-F]{1,8}$'
            then cast(
                cast(conv(split_part({{ text }}, '/', 1), 16, 10) as decimal(38, 0)) * 4294967296
                + cast(conv(split_part({{ text }}, '/', 2), 16, 10) as decimal(38, 0))
                as string
            )
        when {{ text }} rlike '^[0-9a-fA-F]{1,8}:[0-9a-fA-F]{1,8}:[0-9a-fA-F]{1,4}$'
            then {{ datastream__hex_number(
                "concat(lpad(split_part(" ~ text ~ ", ':', 1), 8, '0'), lpad(split_part(" ~ text ~ ", ':', 2), 8, '0'), lpad(split_part(" ~ text ~ ", ':', 3), 4, '0'))"
            ) }}
        when {{ text }} rlike '^[0-9]{1,30}$' and not {{ lsn }} rlike '^\\s*0[xX]' and not ({{ is_hex }}) then {{ text }}
        else {{ datastream__hex_number(text) }}
    end
{%- endmacro %}


{#
    Oracle LogMiner `rs_id` (` 0x0073c9.000a4e4c.01d0 `: redo log sequence, block, offset in
    hex) as decimal text of sequence * 2^48 + block * 2^16 + offset, so it orders as a number.
#}
{% macro datastream__rs_id_number(rs_id) -%}
    {%- set text = "regexp_replace(trim(" ~ rs_id ~ "), '^0[xX]', '')" -%}
    case
        when {{ text }} rlike '^[0-9a-fA-F]{1,12}\\.[0-9a-fA-F]{1,8}\\.[0-9a-fA-F]{1,4}$'
            then cast(
                cast(conv(split_part({{ text }}, '.', 1), 16, 10) as decimal(38, 0)) * 281474976710656
                + cast(conv(split_part({{ text }}, '.', 2), 16, 10) as decimal(38, 0)) * 65536
                + cast(conv(split_part({{ text }}, '.', 3), 16, 10) as decimal(38, 0))
                as string
            )
        when {{ text }} rlike '^[0-9]{1,30}$' then {{ text }}
    end
{%- endmacro %}


{# Epoch milliseconds of a timestamp as text (`.uuu` appended when it has microseconds). #}
{% macro datastream__epoch_millis_text(timestamp_expression) -%}
    case
        when {{ timestamp_expression }} is null then null
        when pmod(unix_micros({{ timestamp_expression }}), 1000) = 0
            then cast(unix_millis({{ timestamp_expression }}) as string)
        else concat(
            cast(floor(unix_micros({{ timestamp_expression }}) / 1000) as string),
            '.',
            lpad(cast(pmod(unix_micros({{ timestamp_expression }}), 1000) as string), 3, '0')
        )
    end
{%- endmacro %}


{#
    A position field of a Datastream event: `metadata_value` (its `source_metadata.<field>`),
    else, for the source systems that keep it there, element `index` (1-based) of
    `sort_key_texts` (the text of `sort_keys`: [timestamp, log_file, log_position] for MySQL,
    [timestamp, scn, rs_id, ssn] for Oracle, [timestamp, lsn] for PostgreSQL and SQL Server).
    Every input is an argument: the macro reads no column of its caller by name.
#}
{% macro datastream__position_field(metadata_value, source_system, sort_key_texts, source_systems, index) -%}
    coalesce(
        {{ metadata_value }},
        case
            when {{ source_system }} in (
                {%- for system in source_systems %}'{{ system }}'{{ ", " if not loop.last }}{% endfor -%}
            ) then try_element_at({{ sort_key_texts }}, {{ index }})
        end
    )
{%- endmacro %}
