{#
    Format `shareplex`: SharePlex JSON as written by DTS. One message per operation:
    `meta` (commit `time`, `userid`, `op`, `scn`, `rowid`, transaction `trans`, `seq` of `size`
    operations in it, `idx` = seq/size, `table` as OWNER.TABLE, `posttime`), `data` (the row, or
    for `upd` only the changed columns' new values) and, for `upd`, `key` (the before image).
    Mapping: docs/formats/shareplex.md.

    Its flow (landed messages -> staging contract) is models/staging/shareplex/stg_shareplex__events.sql;
    this file holds its from_json schema and value conversions (docs/adding-a-format.md).
#}

{% macro shareplex__message_schema() -%}
struct<
    meta: struct<
        time: string,
        userid: string,
        op: string,
        scn: string,
        rowid: string,
        trans: string,
        seq: string,
        size: string,
        table: string,
        idx: string,
        posttime: string
    >,
    data: map<string, string>,
    key: map<string, string>,
    _corrupt_record: string
>
{%- endmacro %}


{# The comparable op name: lower case, letters only. #}
{% macro shareplex__op_name(op) -%}
    regexp_replace(lower({{ op }}), '[^a-z]', '')
{%- endmacro %}


{# Numeric parts of the transaction id `trans` (e.g. `7.0.411499`) compared in sort_key. #}
{% macro shareplex__transaction_parts() %}
    {{ return(3) }}
{% endmacro %}
