{#
    Fails for every combination of `combination_of_columns` that occurs more than once.
    (Our own small version of the dbt-utils test: no hub packages can be installed here.)
#}
{% test unique_combination_of_columns(model, combination_of_columns) %}
    {%- set columns_csv = combination_of_columns | join(', ') -%}
    select
        {{ columns_csv }},
        count(*) as occurrences
    from {{ model }}
    group by {{ columns_csv }}
    having count(*) > 1
{% endtest %}
