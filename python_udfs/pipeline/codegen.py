"""Spark's generated code, fitted to the size of a build's input: one table for both places
that fit it, ``cdc-pipeline watch`` (per batch, through the profile's variables) and the dbt
adapter (per `dbt run`/`build`, from the staging models' message counts).

On a build of a few thousand rows, compiling each statement's generated code costs more than
it saves (a 1,000-message build about 25% faster interpreted, bench/SUMMARY.md), while on 1M
messages the generated code is worth a few percent: below ``SMALL_BATCH_MESSAGES`` new
messages a build runs interpreted. dbt_project.yml's var ``cdc_small_batch_messages`` and
``cdc-pipeline watch --small-batch`` default to the same number.
"""

from __future__ import annotations

# The profile's variable of each setting (profiles/profiles.yml): Spark setting, value when
# interpreted. A variable set by the user is the user's choice: neither fit changes it.
INTERPRETED = {
    "CDC_WHOLE_STAGE_CODEGEN": ("spark.sql.codegen.wholeStage", "false"),
    "CDC_CODEGEN_FACTORY_MODE": ("spark.sql.codegen.factoryMode", "NO_CODEGEN"),
}

# Spark's own values, for a profile that sets neither.
SPARK_DEFAULTS = {"spark.sql.codegen.wholeStage": "true", "spark.sql.codegen.factoryMode": "FALLBACK"}

# A build of fewer new messages than this runs interpreted (0: never).
SMALL_BATCH_MESSAGES = 100_000
