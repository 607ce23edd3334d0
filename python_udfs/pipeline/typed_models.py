"""Write typed per-table models (``cdc-pipeline typed-models``): one one-line model per table.

Each model is ``{{ typed_current_state('<table_id>') }}`` (macros/typed/) in
``models/typed/typed__<database>__<table>.sql``, with a YAML file beside it that documents the
columns current_state knows for that table now and tests the row key. Existing files are left
alone, so hand edits survive; new columns appear in the view anyway at the next run.

Names from messages are data, never code (docs/typed-tables.md):

* model names live in their own namespace (``typed__``) and are made only of ``[a-z0-9_]``; a
  table_id whose parts are not already lowercase ``[a-z0-9]`` words (case, punctuation,
  Unicode, control characters, overlong) gets a suffix from a hash of the exact table_id, so
  two tables never share a model and a table keeps its name from run to run;
* the table_id goes into the SQL file as a Jinja string literal of only ``[A-Za-z0-9_.-]``
  and ``\\uXXXX`` escapes (checked by parsing it back with Jinja);
* the YAML is written by a YAML emitter, and no name from data reaches a field dbt renders as
  Jinja (descriptions, column names): a column whose name holds ``{``, ``}``, ``%``, ``#`` or
  a control character is left out of the YAML (the view still has it) and reported;
* a model whose select Spark cannot plan is not written, with a warning naming the table.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

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

PREFIX = "typed__"
MAX_BASE = 80  # characters of the readable part; the whole name stays under 100
HASH_CHARS = 10
WORD = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")
LITERAL_SAFE = re.compile(r"[A-Za-z0-9_.-]")
# Text that dbt may render as Jinja, or that a reader cannot see, in a YAML field.
NOT_YAML_SAFE = re.compile(r"[{}%#]")
SPARK_TYPE_TEXT = re.compile(r"[a-z][a-z0-9 ]*(\(\s*\d+\s*(,\s*\d+\s*)?\))?( unsigned)?")
BOOKKEEPING = ["_row_key", "_last_operation", "_committed_at", "_sort_key", "_uncastable_columns"]


@dataclass
class TypedModel:
    table_id: str
    name: str
    columns: list[tuple[str, str, bool]]  # (name, type, is key)
    written: bool = False
    lossy: bool = False  # the name does not spell the table_id: it carries a hash suffix
    skipped: str | None = None  # why no file was written (the model could not be generated)
    undocumented: list[str] = field(default_factory=list)  # columns left out of the YAML


def name_is_lossless(table_id: str) -> bool:
    """Does ``typed__`` + the parts joined by ``__`` spell the table_id exactly?"""
    parts = table_id.split(".")
    return all(WORD.fullmatch(part) for part in parts) and len(PREFIX + "__".join(parts)) <= MAX_BASE + len(PREFIX)


def model_name(table_id: str) -> str:
    """The dbt model (and view) name of a table: ``shop.orders`` -> ``typed__shop__orders``.

    Lowercase ``[a-z0-9]`` words separated by single ``_`` are kept as they are, parts joined
    by ``__``. Anything else (case, punctuation, Unicode, control characters, empty parts, more
    than MAX_BASE characters) is normalised and gets ``___`` + the first HASH_CHARS hex digits
    of the SHA-256 of the exact table_id: a lossless name never holds ``___``, so the two kinds
    never meet, and lossy names differ by their hash.
    """
    parts = table_id.split(".")
    if name_is_lossless(table_id):
        return PREFIX + "__".join(parts)
    readable = []
    for part in parts:
        ascii_text = unicodedata.normalize("NFKD", part).encode("ascii", "ignore").decode("ascii")
        readable.append(re.sub(r"[^0-9a-z]+", "_", ascii_text.lower()).strip("_") or "x")
    base = "__".join(readable)[:MAX_BASE].rstrip("_")
    digest = hashlib.sha256(table_id.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_CHARS]
    return f"{PREFIX}{base}___{digest}"


def jinja_literal(text: str) -> str:
    """A Jinja string literal of ``text`` holding only ``[A-Za-z0-9_.-]`` and ``\\u``/``\\U``
    escapes (Jinja decodes a literal's escapes as Python's ``unicode-escape`` does)."""
    out = []
    for char in text:
        if LITERAL_SAFE.fullmatch(char):
            out.append(char)
        else:
            out.append(f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}")
    return "'" + "".join(out) + "'"


def model_sql(table_id: str) -> str:
    return f"{{{{ typed_current_state({jinja_literal(table_id)}) }}}}\n"


def check_model_sql(sql: str, table_id: str) -> None:
    """Parse ``sql`` with Jinja and check it calls typed_current_state with exactly ``table_id``."""
    import jinja2

    seen = []
    template = jinja2.Environment(autoescape=False).from_string(sql)
    template.render(typed_current_state=lambda value: seen.append(value) or "")
    if seen != [table_id]:
        raise ValueError(f"the model's literal reads back as {seen!r}, not {table_id!r}")


def yaml_safe(name: str) -> bool:
    """Can ``name`` stand in a YAML field dbt renders (no Jinja delimiters, nothing invisible)?"""
    return not NOT_YAML_SAFE.search(name) and not any(unicodedata.category(c)[0] == "C" for c in name)


def _description_type(type_: str) -> str:
    text = (type_ or "string").strip().lower()
    return text if SPARK_TYPE_TEXT.fullmatch(text) and len(text) <= 40 else "a type as sent"


def yaml_text(model: TypedModel) -> str:
    """The model's properties: written by a YAML emitter; names from data appear only where
    dbt does not render them or when they hold nothing Jinja or YAML could read."""
    table = f"`{model.table_id}`" if yaml_safe(model.table_id) and len(model.table_id) <= 200 else "one source table"
    columns = []
    seen = {b for b in BOOKKEEPING}
    model.undocumented = []
    for name, type_, is_key in model.columns:
        if not yaml_safe(name) or name.lower() in seen:
            model.undocumented.append(name)
            continue
        seen.add(name.lower())
        role = ", primary key" if is_key else ""
        columns.append({"name": name, "description": f"Source column ({_description_type(type_)}{role})."})
    columns += [
        {"name": "_row_key", "description": "{{ doc('col_row_key') }}", "data_tests": ["unique", "not_null"]},
        {"name": "_last_operation", "description": "Operation of the change that produced the row."},
        {"name": "_committed_at", "description": "{{ doc('col_committed_at') }}"},
        {"name": "_sort_key", "description": "{{ doc('col_sort_key') }}"},
        {"name": "_uncastable_columns",
         "description": "Columns whose text did not convert to the column's type (shown null).",
         "data_tests": ["typed_values_all_converted"]},
    ]
    description = (
        f"Live rows of {table} with real column types from `column_types` (docs/typed-tables.md); "
        "the table_id is the literal in the model's SQL file."
    )
    if model.undocumented:
        description += f" {len(model.undocumented)} column(s) whose names hold Jinja or control characters are in the view but not listed here."
    document = {"version": 2, "models": [{"name": model.name, "description": description, "columns": columns}]}
    header = (
        "# Written by `cdc-pipeline typed-models` (docs/typed-tables.md). table_id as JSON:\n"
        f"# {json.dumps(model.table_id, ensure_ascii=True)}\n"
    )
    return header + yaml.dump(document, Dumper=yaml.SafeDumper, sort_keys=False, allow_unicode=False,
                              default_style='"', width=100)


def check_yaml(text: str, model: TypedModel) -> None:
    """Read the YAML back: one model of that name, names unchanged, nothing Jinja but doc()."""
    spec = yaml.safe_load(text)["models"][0]
    if spec["name"] != model.name:
        raise ValueError("the YAML does not read back")
    for column in spec["columns"]:
        values = [column["name"], column["description"]]
        if any(NOT_YAML_SAFE.search(v) for v in values) and not column["description"].startswith("{{ doc('"):
            raise ValueError(f"column {column['name']!r} would be rendered as Jinja")


def discover(spark: SparkSession, schema: str, table_ids: list[str] | None) -> dict[str, TypedModel]:
    """The tables (``table_ids``, None: every table with live rows) and their live columns."""
    table_filter = ""
    if table_ids:
        spark.createDataFrame([(t,) for t in table_ids], "table_id string").createOrReplaceTempView("typed_models_wanted")
        table_filter = "and table_id in (select table_id from typed_models_wanted)"
    rows = spark.sql(COLUMNS_QUERY.format(schema=schema, table_filter=table_filter)).collect()
    models: dict[str, TypedModel] = {}
    for table_id in table_ids or []:
        models[table_id] = TypedModel(table_id, model_name(table_id), [], lossy=not name_is_lossless(table_id))
    for row in rows:
        table_id = row["table_id"]
        model = models.setdefault(table_id, TypedModel(table_id, model_name(table_id), [], lossy=not name_is_lossless(table_id)))
        model.columns.append((row["column_name"], row["column_type"] or "string", row["key_position"] is not None))
    return models


def write_typed_models(
    spark: SparkSession,
    schema: str,
    models_dir: Path,
    table_ids: list[str] | None,
    validate: Callable[[list[TypedModel]], dict[str, str]] | None = None,
) -> list[TypedModel]:
    """Discover the columns of ``table_ids`` (None: every table with live rows) and write models.

    ``validate`` (e.g. :func:`spark_validator`) gets the models to write and returns
    ``{table_id: reason}`` for those that cannot be built: they are skipped, not written.
    """
    models = discover(spark, schema, table_ids)
    names: dict[str, str] = {}
    for model in models.values():
        other = names.setdefault(model.name, model.table_id)
        if other != model.table_id:  # a hash collision: never overwrite another table's model
            model.skipped = f"its name {model.name} is already the model of table {json.dumps(other)}"
    models_dir.mkdir(parents=True, exist_ok=True)
    todo = [m for m in models.values() if not m.skipped and not (models_dir / f"{m.name}.sql").exists()]
    for model in todo:
        try:
            check_model_sql(model_sql(model.table_id), model.table_id)
            check_yaml(yaml_text(model), model)
        except Exception as error:  # noqa: BLE001 - any failure skips this table only
            model.skipped = f"{type(error).__name__}: {error}"
    if validate is not None:
        for table_id, reason in validate([m for m in todo if not m.skipped]).items():
            models[table_id].skipped = reason
    for model in todo:
        if model.skipped:
            continue
        (models_dir / f"{model.name}.yml").write_text(yaml_text(model), encoding="utf-8")
        (models_dir / f"{model.name}.sql").write_text(model_sql(model.table_id), encoding="utf-8")
        model.written = True
    return list(models.values())


def spark_validator(spark: SparkSession, compile_inline: Callable[[str], str]) -> Callable[[list[TypedModel]], dict[str, str]]:
    """A ``validate`` for write_typed_models: compile each model's SQL with dbt
    (``compile_inline``: inline Jinja -> compiled SQL, one call for all models) and plan it in
    Spark. Returns ``{table_id: reason}`` for models that do not compile or plan."""
    marker = "-- typed-model-boundary --"

    def plan_error(sql: str) -> str | None:
        try:
            spark.sql(sql).schema  # noqa: B018 - analysing the query is the check
        except Exception as error:  # noqa: BLE001
            return f"Spark cannot plan its select: {str(error).splitlines()[0][:300]}"
        return None

    def compile_one(model: TypedModel) -> str:
        return compile_inline(model_sql(model.table_id))

    def validate(models: list[TypedModel]) -> dict[str, str]:
        reasons: dict[str, str] = {}
        if not models:
            return reasons
        try:
            compiled = compile_inline(f"\n{marker}\n".join(model_sql(m.table_id) for m in models)).split(marker)
            if len(compiled) != len(models):
                raise ValueError("boundaries lost")
        except Exception:  # noqa: BLE001 - find the tables that fail, one by one
            compiled = []
            for model in models:
                try:
                    compiled.append(compile_one(model))
                except Exception as error:  # noqa: BLE001
                    compiled.append(None)
                    reasons[model.table_id] = f"dbt cannot compile it: {str(error).splitlines()[0][:300]}"
        for model, sql in zip(models, compiled, strict=True):
            if sql is not None and model.table_id not in reasons:
                error = plan_error(sql)
                if error:
                    reasons[model.table_id] = error
        return reasons

    return validate
