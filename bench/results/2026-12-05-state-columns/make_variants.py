"""The variants measured here, written from compiled selects (compile_model.sh of
../2026-12-04-evening-dropped/):

    python make_variants.py CURRENT_STATE.sql HALVES.sql OUT_DIR

- cs_notypes.sql: current_state's events without `column_types` (null): what carrying it costs;
- cs_notypes_notable.sql: also without the six table columns (source_system ... row_key_kind);
- cs_window.sql: the winner by `row_number()` over the key, not `max_by(struct(...))`;
- halves_narrow.sql: the before half as the three fields the pair uses, not every column.
The first two are upper bounds (they drop output), not candidates.
"""
import sys
from pathlib import Path

current_state, halves, out = Path(sys.argv[1]).read_text(), Path(sys.argv[2]).read_text(), Path(sys.argv[3])


def replaced(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


no_types = replaced(
    current_state, "        column_types,\n        case when is_old_key",
    "        cast(null as map<string, string>) as column_types,\n        case when is_old_key",
)
(out / "cs_notypes.sql").write_text(no_types)
no_table = no_types
for column in ["source_system", "source_database", "source_schema", "source_table", "primary_key_columns",
               "row_key_kind"]:
    kind = "array<string>" if column == "primary_key_columns" else "string"
    no_table = replaced(no_table, f"    {column},\n", f"    cast(null as {kind}) as {column},\n")
(out / "cs_notypes_notable.sql").write_text(no_table)

start, end = current_state.index("latest as (\n"), current_state.index("table_clearings as (")
window = """ranked as (
    select
        with_base.*,
        row_number() over (partition by table_id, row_key order by sort_key desc) as recency,
        collect_list(case when key_has_partial and sort_key >= base_sort_key then struct(sort_key, image) end)
            over (partition by table_id, row_key) as partial_steps
    from with_base
),

latest as (
    select
        table_id,
        row_key,
        struct(ranked.*) as winner,
        aggregate(
            array_sort(
                partial_steps,
                (left_step, right_step) -> case
                    when left_step.sort_key < right_step.sort_key then -1
                    when left_step.sort_key > right_step.sort_key then 1
                    else 0
                end
            ),
            cast(map() as map<string, string>),
            (merged, step) -> map_concat(
                map_filter(merged, (k, v) -> not map_contains_key(coalesce(step.image, map()), k)),
                coalesce(step.image, cast(map() as map<string, string>))
            )
        ) as merged_image
    from ranked
    where recency = 1
),

"""
(out / "cs_window.sql").write_text(current_state[:start] + window + current_state[end:])
(out / "halves_narrow.sql").write_text(replaced(
    halves,
    "min_by(struct(ranked_halves.*), sort_key) filter (where operation = 'update_before') as before_half",
    "min_by(struct(ranked_halves.before, ranked_halves.event_id, ranked_halves.landed_at), sort_key)"
    " filter (where operation = 'update_before') as before_half",
))
