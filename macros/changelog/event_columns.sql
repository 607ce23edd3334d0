{#
    The staging contract: every stg_<format>__events model returns exactly these columns,
    one row per event (a row change, an update half, or a control event) of a landed message.
    Declared once here; `select_event_columns` projects and casts a CTE onto it: every
    staging model ends with it (tests/pytest/test_project_structure.py checks), and
    int_events_unioned's `union all` fails the build on any model that does not match.
#}
{% macro event_columns() %}
    {{ return([
        ('event_id', 'string'),
        ('change_id', 'string'),
        ('message_id', 'string'),
        ('row_index', 'int'),
        ('source_format', 'string'),
        ('event_class', 'string'),
        ('quarantine_reason', 'string'),
        ('vendor_operation', 'string'),
        ('operation', 'string'),
        ('source_system', 'string'),
        ('source_database', 'string'),
        ('source_schema', 'string'),
        ('source_table', 'string'),
        ('table_id', 'string'),
        ('primary_key_columns', 'array<string>'),
        ('row_key', 'string'),
        ('previous_row_key', 'string'),
        ('row_key_kind', 'string'),
        ('before', 'map<string,string>'),
        ('after', 'map<string,string>'),
        ('after_is_partial', 'boolean'),
        ('column_types', 'map<string,string>'),
        ('committed_at', 'timestamp'),
        ('captured_at', 'timestamp'),
        ('source_position', 'string'),
        ('sort_key', 'string'),
        ('transaction_id', 'string'),
        ('pairing_key', 'string'),
        ('ddl_text', 'string'),
        ('ddl_meta', 'string'),
        ('source_metadata', 'map<string,string>'),
        ('raw_value', 'string'),
        ('raw_relation', 'string'),
        ('stream_name', 'string'),
        ('origin', 'string'),
        ('origin_partition', 'int'),
        ('origin_offset', 'bigint'),
        ('landed_at', 'timestamp'),
        ('landing_batch_id', 'string'),
    ]) }}
{% endmacro %}


{#
    Projects and casts `relation_alias` onto the staging contract. With `derive_change_id` the
    contract's `change_id` is computed here (macro change_id, for row changes; null for other
    events) from the relation's columns, which the select must name without qualifier: the
    staging models do it once per change, so later models read it instead of hashing images
    again. With `apply_configured_types` (staging models) the table's types from
    `var('cdc_column_types')` are laid over `column_types`. `row_key_kind` is null wherever
    `row_key` is (control events, changes quarantined without a key). `derived` maps a
    contract column to the SQL expression that computes it (macro staged_event_columns).
#}
{% macro select_event_columns(relation_alias, derive_change_id=false, apply_configured_types=false, derived={}) %}
    {%- set event_class = derived.get('event_class', relation_alias ~ '.event_class') %}
    {%- for name, type in event_columns() %}
    {%- if name in derived %}
    cast({{ derived[name] }} as {{ type }}) as {{ name }}{{ "," if not loop.last }}
    {%- elif name == 'change_id' and derive_change_id %}
    case when {{ event_class }} = 'change' then {{ change_id(
        derived.get('source_format', 'source_format'), derived.get('row_index', 'row_index')
    ) }} end as change_id{{ "," if not loop.last }}
    {%- elif name == 'row_key_kind' %}
    {#- how row_key was made: none without one (a control event, a change with no key) #}
    case when {{ relation_alias }}.row_key is not null then cast({{ relation_alias }}.row_key_kind as string) end
        as row_key_kind{{ "," if not loop.last }}
    {%- elif name == 'column_types' and apply_configured_types %}
    {{ with_configured_column_types(
        relation_alias ~ '.table_id', relation_alias ~ '.column_types',
        relation_alias ~ '.before', relation_alias ~ '.after'
    ) }} as column_types{{ "," if not loop.last }}
    {%- else %}
    cast({{ relation_alias }}.{{ name }} as {{ type }}) as {{ name }}{{ "," if not loop.last }}
    {%- endif %}
    {%- endfor %}
{% endmacro %}


{#
    The shared last step of every staging model, after its own parsing: the staging contract
    from the model's `contract_rows`, which holds the landed message's columns (lineage
    included) and the contract columns its format computes. Derived here, once for all
    formats:
    - `source_format`: `format_id`, the model's format;
    - `row_index`: 0 (one event per message), or the CTE's `row_index` for a format whose
      registry entry has `indexed_rows` (a message that holds several rows: Canal's `data[]`);
    - `event_id`: from `message_id` and `row_index`;
    - `quarantine_reason`: the format's own (its checks step), else `missing_key` for a row
      change or update half without a `row_key` (the last check of every format; Datastream
      checks it before its missing_position);
    - `event_class`: `event_class_raw` (the class the format gives the event), or `invalid`
      when the event has a `quarantine_reason`;
    - `previous_row_key`: for an update whose before image has another key (`before_row_key`,
      null where the format has no before key), that key; its state model deletes it;
    - `raw_value`: kept only for quarantined events (re-processing needs it; elsewhere the
      lineage finds it);
    - `source_metadata`: the format's map without its null entries (what a message lacks);
    - `change_id`, `row_key_kind` and the configured `column_types` (select_event_columns);
    - null for each column named in `absent`, what the format's messages never carry.
#}
{% macro staged_event_columns(relation_alias, format_id, absent=[]) %}
    {%- set r = relation_alias ~ '.' %}
    {%- set row_index = r ~ 'row_index' if cdc_format(format_id).get('indexed_rows') else '0' %}
    {#- the format's own reason, else the last check of every format: a row change or half without a key -#}
    {%- set reason = "coalesce(" ~ r ~ "quarantine_reason, case when " ~ r ~ "event_class_raw in ('change', 'update_half')"
        ~ " and " ~ r ~ "row_key is null then 'missing_key' end)" %}
    {%- set derived = {
        'source_format': cdc_sql_string(format_id),
        'row_index': row_index,
        'event_id': "sha2(concat(" ~ r ~ "message_id, ':', cast(" ~ row_index ~ " as string)), 256)",
        'quarantine_reason': reason,
        'event_class': "case when " ~ reason ~ " is null then " ~ r ~ "event_class_raw else 'invalid' end",
        'previous_row_key': "case when " ~ r ~ "operation = 'update' and " ~ r ~ "before_row_key <> "
            ~ r ~ "row_key then " ~ r ~ "before_row_key end",
        'raw_value': "case when " ~ reason ~ " is not null then " ~ r ~ "raw_value end",
        'source_metadata': "map_filter(" ~ r ~ "source_metadata, (k, v) -> v is not null)",
    } %}
    {%- for name in absent %}
    {%- do derived.update({name: 'null'}) %}
    {%- endfor %}
    {{- select_event_columns(relation_alias, derive_change_id=true, apply_configured_types=true, derived=derived) }}
{% endmacro %}


{# Event classes and the relation each one ends in (docs/canonical-contract.md). #}
{% macro event_classes() %}
    {{ return({
        'change': 'change_log',
        'update_half': 'change_log (after pairing) or unpaired_update_halves',
        'schema_change': 'schema_changes',
        'truncate': 'schema_changes, applied to current_state',
        'transaction': 'stream_progress',
        'heartbeat': 'stream_progress',
        'invalid': 'quarantine',
    }) }}
{% endmacro %}


{#
    The models after staging whose rows are changes in the staging contract, read by
    change_log beside the staging models' changes: the updates paired from two halves, and
    the changes keyed by their table's previously seen key.
#}
{% macro derived_change_models() %}
    {{ return(['int_update_halves_paired', 'int_rekeyed_changes']) }}
{% endmacro %}
