{#
    The relation of this project's model `name`, found in the graph, without a `ref`: for a
    model read only in an incremental run whose dependency already comes through another ref
    (row_history reads a format's update pairs model, a parent of the change_log view it
    refs). A `ref` there would make every unit test of the model give that model's rows.
    None at parse time or when the model is not enabled.
#}
{% macro model_relation(name) %}
    {%- if execute -%}
        {%- for node in graph.nodes.values()
              if node.resource_type == 'model' and node.package_name == project_name and node.name == name -%}
            {{- return(cdc_node_relation(node)) -}}
        {%- endfor -%}
    {%- endif -%}
    {{- return(none) -}}
{% endmacro %}
