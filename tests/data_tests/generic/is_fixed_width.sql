{#
    Fails for rows where `column_name` is null or its length differs within a group
    (`group_by`): sort keys must be fixed width per table so that text order is value order.
#}
{% test is_fixed_width_per_group(model, column_name, group_by) %}
    select
        {{ group_by }},
        min(length({{ column_name }})) as shortest,
        max(length({{ column_name }})) as longest
    from {{ model }}
    group by {{ group_by }}
    having min(length({{ column_name }})) <> max(length({{ column_name }}))
        or count_if({{ column_name }} is null) > 0
{% endtest %}
