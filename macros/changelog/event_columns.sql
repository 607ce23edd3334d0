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
    `row_key` is (control events, changes quarantined without a key).
#}
{% macro select_event_columns(relation_alias, derive_change_id=false, apply_configured_types=false) %}
    {%- for name, type in event_columns() %}
    {%- if name == 'change_id' and derive_change_id %}
    case when {{ relation_alias }}.event_class = 'change' then {{ change_id() }} end as change_id{{ "," if not loop.last }}
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
    The last columns of every format's events: the raw text (kept only for quarantined
    events, where it is needed to re-process them; elsewhere the lineage finds it) and the
    landing lineage, passed through unchanged.
#}
{% macro event_lineage_columns() -%}
    case when quarantine_reason is not null then raw_value end as raw_value,
        raw_relation,
        stream_name,
        origin,
        origin_partition,
        origin_offset,
        landed_at,
        landing_batch_id
{%- endmacro %}


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
