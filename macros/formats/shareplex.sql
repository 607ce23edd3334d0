{#
    Format `shareplex`: SharePlex JSON as written by DTS (seed 002). One message per operation:
    `meta` (commit `time`, `userid`, `op`, `scn`, `rowid`, transaction `trans`, `seq` of `size`
    operations in it, `idx` = seq/size, `table` as OWNER.TABLE, `posttime`), `data` (the row, or
    for `upd` only the changed columns' new values) and, for `upd`, `key` (the before image).
    Mapping: docs/formats/shareplex.md.

    Macros (what every format file defines, docs/adding-a-format.md):
      shareplex__message_schema()   the from_json schema of one message
      (the flow itself, landed messages -> staging contract, is the staging model
       models/staging/shareplex/stg_shareplex__events.sql)
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


{#
    `meta.op` -> (event class, canonical operation). The op is compared lower-cased with every
    character but a-z removed (shareplex__op_name), so `UPDATE BEFORE`, `update_before`,
    `upd_before` and `UpdBefore` are one op: the seed names the ops INSERT, UPDATE, DELETE,
    TRUNCATE, DROP COLUMN, UPDATE BEFORE, UPDATE AFTER and its examples write ins, upd, del.
#}
{% macro shareplex__operations() %}
    {{ return({
        'ins': ('change', 'insert'),
        'insert': ('change', 'insert'),
        'upd': ('change', 'update'),
        'update': ('change', 'update'),
        'del': ('change', 'delete'),
        'delete': ('change', 'delete'),
        'updatebefore': ('update_half', 'update_before'),
        'updbefore': ('update_half', 'update_before'),
        'updateafter': ('update_half', 'update_after'),
        'updafter': ('update_half', 'update_after'),
        'trunc': ('truncate', 'truncate'),
        'truncate': ('truncate', 'truncate'),
        'truncatetable': ('truncate', 'truncate'),
        'dropcol': ('schema_change', 'drop_column'),
        'dropcolumn': ('schema_change', 'drop_column'),
    }) }}
{% endmacro %}


{# The comparable op name: lower case, letters only. #}
{% macro shareplex__op_name(op) -%}
    regexp_replace(lower({{ op }}), '[^a-z]', '')
{%- endmacro %}


{# Numeric parts of the transaction id `trans` (e.g. `7.0.411499`) compared in sort_key. #}
{% macro shareplex__transaction_parts() %}
    {{ return(3) }}
{% endmacro %}
