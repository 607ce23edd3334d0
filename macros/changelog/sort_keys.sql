{#
    Building blocks of `sort_key`: fixed-width text whose byte order is the intended order.
    Numbers are compared as numbers, never as text ("00000.23" sorts after "00000.123").
#}

{#
    Fixed-width (1 + 30 + 12 characters), order-preserving encoding of a decimal number given
    as text or number: class letter (A = null or not a number, B = negative, C = zero or
    positive), 30 integer digits, 12 fraction digits. Negative numbers store the nines'
    complement so that -5 sorts before -4.
    Most positions are plain integers: when the text is exactly a bigint's own text, the
    digits are padded directly; other text takes the general path (regular expressions,
    about twice the cost). Both give the same key.
#}
{% macro sort_key_number(expression) -%}
    {%- set text = "trim(cast(" ~ expression ~ " as string))" -%}
    {%- set whole = "try_cast(" ~ text ~ " as bigint)" -%}
    {%- set digits -%}
        concat(
            lpad(regexp_extract({{ text }}, '^[-+]?0*([0-9]*)', 1), 30, '0'),
            rpad(regexp_extract({{ text }}, '\\.([0-9]*)$', 1), 12, '0')
        )
    {%- endset -%}
    case
        when cast({{ whole }} as string) = {{ text }}
            then case
                when {{ whole }} < 0
                    then concat('B', translate(lpad(substr({{ text }}, 2), 30, '0'), '0123456789', '9876543210'), '999999999999')
                else concat('C', lpad({{ text }}, 30, '0'), '000000000000')
            end
        when not {{ is_sort_key_number(expression) }}
            then concat('A', repeat('0', 42))
        when {{ text }} rlike '^-' and {{ text }} rlike '[1-9]'
            then concat('B', translate({{ digits }}, '0123456789', '9876543210'))
        else concat('C', {{ digits }})
    end
{%- endmacro %}


{#
    True when `expression` is a number `sort_key_number` can order (class B or C), false when
    it is null or not a number (class A). Formats use it to quarantine a change without a
    usable vendor position (`missing_position`) instead of ordering it before everything.
#}
{% macro is_sort_key_number(expression) -%}
    coalesce(trim(cast({{ expression }} as string)) rlike '^[-+]?[0-9]{1,30}(\\.[0-9]{0,12})?$', false)
{%- endmacro %}


{# A small non-negative integer (row index, half order) as fixed-width digits. #}
{% macro sort_key_int(expression, width=6) -%}
    lpad(cast(coalesce({{ expression }}, 0) as string), {{ width }}, '0')
{%- endmacro %}


{#
    Landing order: the tie-breaker every format ends with. Batch time, then Kafka partition,
    then line/offset, then the message id (files of one batch), then the row inside the message.
#}
{% macro landing_order_key(row_index='row_index') -%}
    concat(
        lpad(cast(unix_micros(landed_at) as string), 17, '0'),
        lpad(cast(coalesce(origin_partition, 0) as string), 10, '0'),
        lpad(cast(coalesce(origin_offset, 0) as string), 20, '0'),
        substr(message_id, 1, 16),
        {{ sort_key_int(row_index) }}
    )
{%- endmacro %}
