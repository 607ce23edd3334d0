{#
    The reason code of a message that from_json could not read into its format's schema
    (`_corrupt_record` set), for the formats whose messages must be JSON objects:
    `not_json` when the text is no JSON (or, with `object_required`, no JSON object),
    else `type_clash` (an object whose fields have the wrong types).
#}
{% macro unreadable_message_reason(raw_value, object_required=true) -%}
    case
        when try_parse_json({{ raw_value }}) is null
            {%- if object_required %} or not startswith(ltrim({{ raw_value }}), '{'){% endif %}
            then 'not_json'
        else 'type_clash'
    end
{%- endmacro %}
