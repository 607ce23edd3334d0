"""Write typed per-table models (``cdc-pipeline typed-models``): one one-line model per table.

Each model is ``{{ typed_current_state('<table_id>') }}`` (macros/typed/) in
``models/typed/<database>__<table>.sql``, with a YAML file beside it that documents every
column current_state knows for that table now and tests the row key. Existing files are
left alone, so hand edits survive; new columns appear in the view anyway at the next run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

COLUMNS_QUERY = """
with live as (
    select table_id, row_image, column_types, primary_key_columns, sort_key
    from {schema}.current_state
    where not is_deleted {table_filter}
)
select table_id, column_name,
       max_by(column_types[column_name], sort_key) as column_type,
       min(nullif(array_position(primary_key_columns, column_name), 0)) as key_position
from live lateral view explode(map_keys(row_image)) as column_name
group by table_id, column_name
order by table_id, key_position asc nulls last, column_name
"""


@dataclass
class TypedModel:
    table_id: str
    name: str
    columns: list[tuple[str, str, bool]]  # (name, type, is key)
    written: bool = False


def model_name(table_id: str) -> str:
    """``shop.Orders`` -> ``shop__orders``: a dbt model name (and relation name) per table."""
    parts = [re.sub(r"[^0-9a-z]+", "_", part.lower()).strip("_") or "x" for part in table_id.split(".")]
    name = "__".join(parts)
    return name if name[0].isalpha() else f"t_{name}"


def yaml_text(model: TypedModel) -> str:
    def quoted(text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    lines = [
        "version: 2",
        "",
        "models:",
        f"- name: {model.name}",
        f"  description: {quoted(f'Live rows of `{model.table_id}` with real column types from `column_types` (docs/typed-tables.md).')}",
        "  columns:",
    ]
    # Tests go on _row_key only: source columns vanish from the view while no live row has them.
    for name, type_, is_key in model.columns:
        role = ", primary key" if is_key else ""
        lines += [f"  - name: {quoted(name)}", f"    description: {quoted(f'Source column `{name}` ({type_}{role}).')}"]
    lines += [
        "  - name: _row_key",
        "    description: '{{ doc(''col_row_key'') }}'",
        "    data_tests:",
        "    - unique",
        "    - not_null",
        "  - name: _last_operation",
        "    description: 'Operation of the change that produced the row.'",
        "  - name: _committed_at",
        "    description: '{{ doc(''col_committed_at'') }}'",
        "  - name: _sort_key",
        "    description: '{{ doc(''col_sort_key'') }}'",
        "  - name: _uncastable_columns",
        "    description: 'Columns whose text did not convert to the column''s type (shown null).'",
        "    data_tests:",
        "    - typed_values_all_converted",
    ]
    return "\n".join(lines) + "\n"


def write_typed_models(
    spark: SparkSession, schema: str, models_dir: Path, table_ids: list[str] | None
) -> list[TypedModel]:
    """Discover the columns of ``table_ids`` (None: every table with live rows) and write models."""
    table_filter = ""
    if table_ids:
        literals = ", ".join("'" + t.replace("\\", "\\\\").replace("'", "\\'") + "'" for t in table_ids)
        table_filter = f"and table_id in ({literals})"
    rows = spark.sql(COLUMNS_QUERY.format(schema=schema, table_filter=table_filter)).collect()
    models: dict[str, TypedModel] = {}
    for table_id in table_ids or []:
        models[table_id] = TypedModel(table_id, model_name(table_id), [])
    for row in rows:
        model = models.setdefault(row["table_id"], TypedModel(row["table_id"], model_name(row["table_id"]), []))
        model.columns.append((row["column_name"], row["column_type"] or "string", row["key_position"] is not None))
    models_dir.mkdir(parents=True, exist_ok=True)
    for model in models.values():
        sql_path = models_dir / f"{model.name}.sql"
        if sql_path.exists():
            continue
        literal = "'" + model.table_id.replace("\\", "\\\\").replace("'", "\\'") + "'"
        sql_path.write_text(f"{{{{ typed_current_state({literal}) }}}}\n", encoding="utf-8")
        (models_dir / f"{model.name}.yml").write_text(yaml_text(model), encoding="utf-8")
        model.written = True
    return list(models.values())
