{#
    Epoch number -> UTC timestamp that never fails the run.

    Spark's timestamp_seconds / timestamp_millis / timestamp_micros multiply with
    Math.multiplyExact and throw on overflow, and ANSI casts throw too, so one message with
    an odd value (a 19-digit nanosecond time where milliseconds are documented) would stop
    the whole build. This macro reads `value` (a number, or numeric text such as
    "1605339932000", "-1", "1.6E12"; anything else gives null) as decimal(38, 6), checks the
    range BEFORE any arithmetic, and gives null outside the years 0001-9999.

    `unit`:
      's', 'ms', 'us', 'ns'  the value is in that unit.
      'auto'                 by magnitude (for event times documented in one unit that vendors
                             send in another): |v| < 1e11 seconds (10 digits), < 1e14
                             milliseconds (13), < 1e17 microseconds (16), else nanoseconds (19).
                             Seconds and milliseconds overlap only before 1973-03-03.
      'ms_or_finer'          milliseconds when that is a year 0001-9999, else microseconds,
                             else nanoseconds (for values documented as ms that may be dates
                             near 1970 or sentinels like 9999-12-31, where 'auto' would
                             misread them). Never seconds.
    Sub-microsecond digits are dropped (floor).
#}

{# Microseconds per unit, applied to an in-range value only (no overflow possible). #}
{% macro epoch_unit_to_timestamp(number, unit) -%}
    {%- set factors = {'s': '1000000', 'ms': '1000', 'us': '1', 'ns': '0.001'} -%}
    timestamp_micros(cast(floor({{ number }} * {{ factors[unit] }}) as bigint))
{%- endmacro %}


{# Inclusive bounds of the years 0001-9999 (UTC) in each unit. #}
{% macro epoch_in_range(number, unit) -%}
    {%- set bounds = {
        's': ('-62135596800', '253402300799.999999'),
        'ms': ('-62135596800000', '253402300799999.999'),
        'us': ('-62135596800000000', '253402300799999999'),
        'ns': ('-62135596800000000000', '253402300799999999999'),
    }[unit] -%}
    {{ number }} between {{ bounds[0] }} and {{ bounds[1] }}
{%- endmacro %}


{#
    The `when` branches of epoch_to_timestamp for a whole number that fits a bigint (`whole`,
    null otherwise): the usual case, read and scaled in integer arithmetic instead of the
    decimal(38, 6) parse (1M Canal staging, warm: about 0.7 s of 17,
    bench/results/2026-12-04-whole-epochs/). Same results; a nanosecond value, or anything
    else, falls through to the decimal branches.
#}
{% macro epoch_whole_to_timestamp(whole, unit) -%}
    {%- set bounds = {
        's': ('-62135596800', '253402300799'),
        'ms': ('-62135596800000', '253402300799999'),
        'us': ('-62135596800000000', '253402300799999999'),
    } -%}
    {%- set functions = {'s': 'timestamp_seconds', 'ms': 'timestamp_millis', 'us': 'timestamp_micros'} -%}
    {%- set magnitudes = {'s': '100000000000', 'ms': '100000000000000', 'us': '100000000000000000'} -%}
    {%- if unit in ['s', 'ms', 'us'] %}
        when {{ whole }} is not null then
            case
                when {{ whole }} between {{ bounds[unit][0] }} and {{ bounds[unit][1] }}
                    then {{ functions[unit] }}({{ whole }})
            end
    {%- elif unit == 'auto' %}
        {%- for finer in ['s', 'ms', 'us'] %}
        when {{ whole }} > -{{ magnitudes[finer] }} and {{ whole }} < {{ magnitudes[finer] }} then
            case
                when {{ whole }} between {{ bounds[finer][0] }} and {{ bounds[finer][1] }}
                    then {{ functions[finer] }}({{ whole }})
            end
        {%- endfor %}
    {%- elif unit == 'ms_or_finer' %}
        {%- for finer in ['ms', 'us'] %}
        when {{ whole }} between {{ bounds[finer][0] }} and {{ bounds[finer][1] }}
            then {{ functions[finer] }}({{ whole }})
        {%- endfor %}
    {%- endif %}
{%- endmacro %}


{% macro epoch_to_timestamp(value, unit='auto') -%}
    {%- if unit not in ['s', 'ms', 'us', 'ns', 'auto', 'ms_or_finer'] -%}
        {{ exceptions.raise_compiler_error("epoch_to_timestamp: unknown unit '" ~ unit ~ "'") }}
    {%- endif -%}
    {%- set text = "trim(cast(" ~ value ~ " as string))" -%}
    {%- set number = "try_cast(" ~ text ~ " as decimal(38, 6))" -%}
    case
        {{- epoch_whole_to_timestamp("try_cast(" ~ text ~ " as bigint)", unit) }}
        when {{ number }} is null then cast(null as timestamp)
    {%- if unit == 'auto' %}
        when abs({{ number }}) < 100000000000 then
            case when {{ epoch_in_range(number, 's') }} then {{ epoch_unit_to_timestamp(number, 's') }} end
        when abs({{ number }}) < 100000000000000 then
            case when {{ epoch_in_range(number, 'ms') }} then {{ epoch_unit_to_timestamp(number, 'ms') }} end
        when abs({{ number }}) < 100000000000000000 then
            case when {{ epoch_in_range(number, 'us') }} then {{ epoch_unit_to_timestamp(number, 'us') }} end
        when {{ epoch_in_range(number, 'ns') }} then {{ epoch_unit_to_timestamp(number, 'ns') }}
    {%- elif unit == 'ms_or_finer' %}
        {%- for finer in ['ms', 'us', 'ns'] %}
        when {{ epoch_in_range(number, finer) }} then {{ epoch_unit_to_timestamp(number, finer) }}
        {%- endfor %}
    {%- else %}
        when {{ epoch_in_range(number, unit) }} then {{ epoch_unit_to_timestamp(number, unit) }}
    {%- endif %}
    end
{%- endmacro %}
