{#
    Row identity. `row_key` is the canonical text of the key values in key order: the value
    itself for a one-column key, a JSON array for a composite key. Without a primary key the
    message's row id is used (DataWorks `#alibaba_rds_row_id#`, Oracle `rowid`), and last a
    hash of the whole row; `row_key_kind` says which.
#}

{# Primary keys from project configuration, as a SQL map literal table_id -> array. #}
{% macro configured_primary_keys() -%}
    {%- set configured = var('cdc_primary_keys', {}) -%}
    {%- if configured -%}
        map(
        {%- for table_id, columns in configured.items() %}
            {{ cdc_sql_string(table_id) }}, array({% for c in columns %}{{ cdc_sql_string(c) }}{{ ", " if not loop.last }}{% endfor %}){{ "," if not loop.last }}
        {%- endfor %}
        )
    {%- else -%}
        cast(map() as map<string, array<string>>)
    {%- endif -%}
{%- endmacro %}


{#
    The key columns of a row, in the one precedence of every format: the table's entry in
    `cdc_primary_keys` (configuration overrides what a message says: a message may name a
    key its rows do not carry, as in Google's Datastream test files), else the first non-empty
    of `message_keys` (array<string> expressions, in the format's order: the key the message
    declares), else null, and the caller falls back to a row id, then to a row hash.
    `table_id` is the SQL expression of the table id the configuration is keyed by.
#}
{% macro declared_key_columns(table_id, message_keys=[]) -%}
    coalesce(
        nullif({{ configured_primary_keys() }}[{{ table_id }}], cast(array() as array<string>))
        {%- for keys in message_keys %},
        case when size({{ keys }}) > 0 then {{ keys }} end
        {%- endfor %}
    )
{%- endmacro %}


{#
    The body of a staging model's CTE `seen_keys`: per table (`table_id`), the key columns
    (`key_columns`) its latest event whose declared key columns all had values carried: from
    the events of `events` (the batch: columns `table_id_expr`, `key_columns_expr`,
    `image_expr`, `landed_at`) and, in an incremental run, the changes the model staged
    before (`primary_key_columns` of its `primary_key` rows). A staging model falls back to it
    when an event's declared key columns are absent from its row, before `missing_key`.
#}
{% macro seen_key_columns(events, table_id_expr, key_columns_expr, image_expr) -%}
    select
        seen.table_id,
        max_by(seen.key_columns, seen.landed_at) as key_columns
    from (
        select
            {{ events }}.{{ table_id_expr }} as table_id,
            {{ events }}.{{ key_columns_expr }} as key_columns,
            {{ events }}.landed_at
        from {{ events }}
        where size({{ events }}.{{ key_columns_expr }}) > 0
            and {{ key_text(events ~ '.' ~ key_columns_expr, events ~ '.' ~ image_expr) }} is not null
        {%- if is_incremental() %}
        union all
        select
            staged.table_id,
            staged.primary_key_columns as key_columns,
            staged.landed_at
        from {{ this }} as staged
        where staged.event_class = 'change'
            and staged.row_key_kind = 'primary_key'
        {%- endif %}
    ) as seen
    where seen.table_id is not null
    group by seen.table_id
{%- endmacro %}


{# Row-id columns, in order of preference, for tables without a primary key. #}
{% macro row_id_columns() %}
    {{ return(['#alibaba_rds_row_id#', 'rowid', 'ROWID']) }}
{% endmacro %}


{#
    Canonical JSON text of a map with its keys sorted (stable hashing and comparison).
    sort_array, not array_sort: Spark runs array_sort's default comparator as an interpreted
    lambda (about a quarter slower on 10-column maps: bench/results/2026-11-27-late-lambda-costs).
    Entries are never null and keys are unique, so both sort alike.
#}
{% macro canonical_map_json(map_expression) -%}
    to_json(sort_array(map_entries({{ map_expression }})))
{%- endmacro %}


{#
    The value of key column `column` in `image`: the column of that exact name, else (no
    column of that exact name) the first, in name order, whose name matches it ignoring case
    (MySQL, Oracle and SQL Server column names are case-insensitive: Canal may give pkNames
    `k1` with the row's column written `K1`).
#}
{% macro key_value(image, column) -%}
    case
        when array_contains(map_keys({{ image }}), {{ column }}) then {{ image }}[{{ column }}]
        else try_element_at(
            transform(
                sort_array(map_entries(map_filter({{ image }}, (image_column__, image_value__) -> lower(image_column__) = lower({{ column }})))),
                image_entry__ -> image_entry__.value
            ),
            1
        )
    end
{%- endmacro %}


{#
    The key value text for `key_columns` (array<string>) read from `image` (map). A one-column
    key (the common case) is read without a lambda: lambdas are interpreted, not compiled.
#}
{% macro key_text(key_columns, image) -%}
    case
        when {{ key_columns }} is null or size({{ key_columns }}) = 0 or {{ image }} is null then null
        when size({{ key_columns }}) = 1 then {{ key_value(image, 'element_at(' ~ key_columns ~ ', 1)') }}
        when exists({{ key_columns }}, key_column__ -> {{ key_value(image, 'key_column__') }} is null) then null
        else to_json(transform({{ key_columns }}, key_column__ -> {{ key_value(image, 'key_column__') }}))
    end
{%- endmacro %}


{#
    Columns that identify the row: declared key, else a row id found in the image.
    `declared_keys` is an array<string> expression (null or empty when none).
#}
{% macro effective_key_columns(declared_keys, image) -%}
    case
        when size(coalesce({{ declared_keys }}, array())) > 0 then {{ declared_keys }}
        {%- for column in row_id_columns() %}
        when {{ image }}['{{ column }}'] is not null then array('{{ column }}')
        {%- endfor %}
        else cast(array() as array<string>)
    end
{%- endmacro %}


{#
    How `row_key` is made: `primary_key` (declared key columns), `row_id` (a row id found in the
    image), else `row_hash`. `key_columns` is the row's effective_key_columns.
#}
{% macro row_key_kind(declared_keys, key_columns) -%}
    case
        when size(coalesce({{ declared_keys }}, array())) > 0 then 'primary_key'
        when size({{ key_columns }}) > 0 then 'row_id'
        else 'row_hash'
    end
{%- endmacro %}


{#
    row_key of `image`: key text, or the full-row hash for keyless tables. `key_columns` is the
    image's effective_key_columns, given as a column computed before (a lateral alias serves):
    this macro reads it six times, and an expression in its place is code generated six times
    (bench/results/2026-12-04-key-columns-once).
#}
{% macro row_key(key_columns, image) -%}
    case
        when {{ image }} is null then null
        when size({{ key_columns }}) = 0 then sha2({{ canonical_map_json(image) }}, 256)
        else {{ key_text(key_columns, image) }}
    end
{%- endmacro %}


{#
    The key columns of a staged row, the shared step every keyed format calls once: the
    contract's primary_key_columns (effective_key_columns of `key_image`), row_key and
    row_key_kind; with `before_image`, also before_key_columns and `before_row_key`, the key
    of an update's before image (staged_event_columns makes it previous_row_key when it
    differs). The items read each other as lateral aliases: Spark computes each once, where
    an expression in their place would be generated for each of row_key's six reads.
#}
{% macro row_key_columns(declared_keys, key_image, before_image=none, is_update="operation = 'update'") -%}
    {{ effective_key_columns(declared_keys, key_image) }} as primary_key_columns,
    {{ row_key('primary_key_columns', key_image) }} as row_key,
    {{ row_key_kind(declared_keys, 'primary_key_columns') }} as row_key_kind
    {%- if before_image is not none %},
    {{ effective_key_columns(declared_keys, before_image) }} as before_key_columns,
    case when {{ is_update }} then {{ row_key('before_key_columns', before_image) }} end as before_row_key
    {%- endif %}
{%- endmacro %}


{#
    Deterministic change id: the same logical change delivered twice gets the same id.
    Built from the vendor position, the row's place in its message, the operation, the key
    and the image the change carries (after image, or the before image of a delete).
#}
{% macro change_id(source_format='source_format', row_index='row_index') -%}
    sha2(concat_ws('\u0001',
        {{ source_format }},
        coalesce(table_id, ''),
        coalesce(source_position, ''),
        cast({{ row_index }} as string),
        operation,
        coalesce(row_key, ''),
        coalesce({{ canonical_map_json("case when operation = 'delete' then before else after end") }}, '')
    ), 256)
{%- endmacro %}


{# Bucket of a row for current_state partitioning. #}
{% macro key_bucket(table_id='table_id', row_key='row_key') -%}
    cast(pmod(xxhash64({{ table_id }}, {{ row_key }}), {{ var('cdc_key_buckets') }}) as int)
{%- endmacro %}


{#
    Deterministic id of a DDL / truncate event: the same event delivered twice is kept once.
    Built from the format, table, vendor position, operation and DDL text.
#}
{% macro schema_change_id() -%}
    sha2(concat_ws('\u0001',
        source_format,
        coalesce(table_id, ''),
        coalesce(source_position, ''),
        operation,
        coalesce(ddl_text, ''),
        coalesce(cast(committed_at as string), '')
    ), 256)
{%- endmacro %}
