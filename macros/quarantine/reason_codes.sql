{#
    Quarantine reason codes: the shared ones below plus each format's own
    (`<format>__quarantine_reasons()` in its macro file, when it defines one).
    docs/quarantine.md lists them with examples; the singular test
    assert_quarantine_reasons_are_documented fails on any code not listed here.
#}
{% macro shared_quarantine_reasons() %}
    {{ return({
        'not_json': 'the message is not a JSON object',
        'type_clash': 'valid JSON, but a field has the wrong type',
        'missing_operation': 'the message has no operation',
        'unknown_operation': 'an operation the format does not document',
        'missing_table': 'a row change or DDL without a table name',
        'missing_after_image': 'insert or update without an after image',
        'missing_before_image': 'delete or update-before without a before image',
        'missing_key': 'a key column has no value in the image',
        'missing_position': 'no vendor position (sequence id, offset, …) to order the change by',
    }) }}
{% endmacro %}


{% macro quarantine_reason_codes() %}
    {% set codes = shared_quarantine_reasons() %}
    {% for format_id in cdc_format_registry() %}
        {% set format_macro = context.get(format_id ~ '__quarantine_reasons') %}
        {% if format_macro is not none %}
            {% do codes.update(format_macro()) %}
        {% endif %}
    {% endfor %}
    {{ return(codes) }}
{% endmacro %}
