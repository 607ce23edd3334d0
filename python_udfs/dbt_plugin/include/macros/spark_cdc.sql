{# The spark_cdc adapter adds no macros of its own: dbt-spark's are used through
   the plugin dependency. This file keeps the macro path present for dbt. #}
