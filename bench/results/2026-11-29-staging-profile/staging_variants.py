"""Time variants of a compiled staging model's select in one warm process (README here).

    CDC_LOCAL_DIR=<warehouse of a peer run> CDC_SCHEMA=bench \
    .venv/bin/python bench/results/2026-11-29-staging-profile/staging_variants.py \
        <compiled stg_canal__events.sql> full full parse upto_typed no_ids:parquet ...

Each argument is a variant, optionally `:parquet` (written to files under $CDC_LOCAL_DIR/tmp)
instead of Spark's `noop` sink (computed, not written). The first run of a process pays the
JVM's warm-up: run `full` twice and compare the later figures.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

from python_udfs.pipeline import cli

PROJECT = Path(__file__).resolve().parents[3]
VARS = '{"cdc_formats": ["canal"], "cdc_canal_legacy_layout": false, "cdc_landing_schema": "bench_landing"}'
CHANGE_ID = (r"case when case when contract_rows.quarantine_reason is null then contract_rows.event_class_raw "
             r"else 'invalid' end = 'change' then sha2\(concat_ws.*?, 256\) end as change_id")
NEXT_CTE = {"fields": "classified", "classified": "typed", "typed": "exploded", "exploded": "shaped",
            "shaped": "keyed", "keyed": "events", "events": "contract_rows", "contract_rows": None}


def variant_sql(sql: str, name: str) -> str:
    if name == "full":
        return sql
    if name == "landed":  # the read of the landing table alone
        return sql.split("parsed as (")[0].rstrip().rstrip(",") + "\nselect * from new_messages"
    if name == "parse":  # ... and from_json
        return sql.split("fields as (")[0].rstrip().rstrip(",") + "\nselect * from parsed"
    if name.startswith("upto_"):  # every column of the flow up to that CTE
        cte = name[len("upto_"):]
        following = NEXT_CTE[cte]
        head = sql.rsplit("\nselect\n", 1)[0] if following is None else sql.split(f"\n{following} as (")[0]
        head = "\n".join(line for line in head.splitlines() if not line.lstrip().startswith("--"))
        return head.rstrip().rstrip(",") + f"\nselect * from {cte}"
    if name == "no_ids":  # no event_id, change_id, message_id
        text = re.sub(CHANGE_ID, "null as change_id", sql, flags=re.S)
        text = text.replace("cast(sha2(concat(contract_rows.message_id, ':', cast(contract_rows.row_index as string)), 256) "
                            "as string) as event_id", "null as event_id")
        return text.replace("cast(contract_rows.message_id as string) as message_id", "null as message_id")
    if name == "no_timestamps":  # committed_at and captured_at null
        start = sql.index("        case\n            when try_cast(message.es as bigint) > 0 then case")
        end = sql.index("end as captured_at,")
        return sql[:start] + "        cast(null as timestamp) as committed_at, cast(null as timestamp) as " + sql[end + 7:]
    if name == "no_row_keys":  # computed_row_key and before_row_key null
        start = sql.index("keyed as (")
        end = sql.index("events as (", start)
        return (sql[:start] + "keyed as (select shaped.*, cast(null as string) as computed_row_key, "
                "cast(null as string) as before_row_key from shaped),\n\n" + sql[end:])
    if name == "map_contains_key":  # array_contains(map_keys(m), k) -> map_contains_key(m, k)
        return re.sub(r"array_contains\(map_keys\((\w+)\), ", r"map_contains_key(\1, ", sql)
    raise SystemExit(f"unknown variant {name}")


def main(compiled: str, variants: list[str]) -> None:
    cli.environment_defaults(PROJECT)
    cli.run_dbt(PROJECT, ["run-operation", "create_landing_tables", "--vars", VARS])
    spark = cli.spark_session()
    sql = Path(compiled).read_text(encoding="utf-8")
    for argument in variants:
        name, _, sink = argument.partition(":")
        frame = spark.sql(variant_sql(sql, name))
        started = time.perf_counter()
        if sink == "parquet":
            frame.write.mode("overwrite").parquet(os.path.join(os.environ["CDC_LOCAL_DIR"], "tmp", f"variant_{name}"))
        else:
            frame.write.format("noop").mode("overwrite").save()
        print(f"{argument}: {time.perf_counter() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
