{#
    Format `datahub_tuple`: records of a DataHub Tuple topic written by DataWorks.
    One JSON object per record: the user's columns plus the meta columns below. A Tuple topic
    holds one table and carries no key, types, DDL or heartbeats: the table comes from
    `_source_table_` (else the stream name), keys from var('cdc_primary_keys').
    Mapping: docs/formats/datahub_tuple.md.
#}

{# Meta columns of a Tuple record; every other field is a user column. #}
{% macro datahub_tuple__meta_columns() %}
    {{ return([
        '_sequence_id_', '_operation_type_', '_excute_time_', '_execute_time_',
        '_source_table_', '_before_image_', '_after_image_',
    ]) }}
{% endmacro %}


{# An image flag: `Y` (as DataWorks writes it), also a JSON boolean, `true`, `yes`, `t` or `1`, any case. #}
{% macro datahub_tuple__flag_is_set(flag) -%}
    coalesce(upper(trim({{ flag }})) in ('Y', 'YES', 'TRUE', 'T', '1'), false)
{%- endmacro %}


{#
    `_excute_time_`: an epoch number read by magnitude (10-digit seconds, 13-digit ms,
    16-digit µs as a DataHub TIMESTAMP, 19-digit ns; values <= 0 and times outside the
    years 0001-9999 are null), else timestamp text.
#}
{% macro datahub_tuple__execute_time(execute_time) -%}
    case
        when trim({{ execute_time }}) rlike '^[-+]?[0-9]+(\\.[0-9]*)?$' then
            case
                when try_cast(trim({{ execute_time }}) as decimal(38, 6)) > 0
                    then {{ epoch_to_timestamp(execute_time, 'auto') }}
            end
        else try_to_timestamp({{ execute_time }})
    end
{%- endmacro %}


{% macro datahub_tuple__message_schema() -%}
map<string, string>
{%- endmacro %}
