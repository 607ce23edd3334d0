"""The peer: Apache Flink (PyFlink, its own venv) computing the final state of CDC files.

Runs inside the Flink virtual environment (``.bench/flink-venv``, made by ``bench/setup_flink.sh``),
never in the project's: it imports nothing from the project.

    .bench/flink-venv/bin/python bench/flink/peer.py SPEC.json OUT.json

SPEC: {"format": "canal-json" | "debezium-json", "parallelism": 2,
       "tables": [{"name", "path", "columns": [[name, flink_type], ...], "key": [...]}]}

For each table: a filesystem source in streaming mode with the format, a
``PRIMARY KEY (...) NOT ENFORCED`` and ``table.exec.source.cdc-events-duplicate = true`` (so
Flink normalizes the changelog per key: the final state), then per table the live row count
and a content checksum of the final rows, computed by one streaming job and collected.

The checksum is computed the same way on our side (bench/run.py): over the final rows,
``sum(ascii(md5(text)[1]) + 131·ascii(md5(text)[2]) + 131²·… )`` of the first four hex
digits, where ``text`` = the row's values as text joined with ``|``.
"""

from __future__ import annotations

import json
import sys
import time


def checksum_sql(text_expr: str) -> str:
    digest = f"MD5({text_expr})"
    parts = [f"CAST(ASCII(SUBSTRING({digest} FROM {i + 1} FOR 1)) AS BIGINT) * {131 ** i}" for i in range(4)]
    return " + ".join(parts)


def main(spec_path: str, out_path: str) -> int:
    started = time.time()
    with open(spec_path, encoding="utf-8") as handle:
        spec = json.load(handle)
    from pyflink.common import RowKind
    from pyflink.table import EnvironmentSettings, TableEnvironment

    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    config = env.get_config()
    config.set("parallelism.default", str(spec.get("parallelism", 2)))
    config.set("table.exec.source.cdc-events-duplicate", "true")
    # the usual setting for aggregating changelogs: updates are folded per mini-batch
    config.set("table.exec.mini-batch.enabled", "true")
    config.set("table.exec.mini-batch.allow-latency", "1 s")
    config.set("table.exec.mini-batch.size", "5000")
    config.set("pipeline.name", f"bench-peer-{spec['format']}")
    gateway_ready = time.time()

    fmt = spec["format"]
    selects = []
    for table in spec["tables"]:
        columns = ",\n  ".join(f"`{name}` {kind}" for name, kind in table["columns"])
        key = ", ".join(f"`{k}`" for k in table["key"])
        options = {
            "connector": "filesystem",
            "path": table["path"],
            "format": fmt,
            f"{fmt}.ignore-parse-errors": "true",  # DDL and control messages are not rows
        }
        with_clause = ",\n  ".join(f"'{k}' = '{v}'" for k, v in options.items())
        env.execute_sql(
            f"CREATE TEMPORARY TABLE `src_{table['name']}` (\n  {columns},\n"
            f"  PRIMARY KEY ({key}) NOT ENFORCED\n) WITH (\n  {with_clause}\n)"
        )
        text = "CONCAT_WS('|', " + ", ".join(f"CAST(`{name}` AS STRING)" for name, _ in table["columns"]) + ")"
        selects.append(
            f"SELECT '{table['name']}' AS table_name, COUNT(*) AS live_rows, "
            f"SUM({checksum_sql(text)}) AS checksum FROM `src_{table['name']}`"
        )
    query = "\nUNION ALL\n".join(selects)
    job_started = time.time()
    result = env.execute_sql(query)
    final: dict[str, dict] = {}
    updates = 0
    with result.collect() as rows:
        for row in rows:
            updates += 1
            name = row[0]
            if row.get_row_kind() in (RowKind.INSERT, RowKind.UPDATE_AFTER):
                final[name] = {"live_rows": int(row[1]), "checksum": int(row[2] or 0)}
            elif row.get_row_kind() == RowKind.DELETE:
                final.pop(name, None)
    finished = time.time()
    out = {
        "engine": "flink",
        "format": fmt,
        "tables": final,
        "aggregate_updates_collected": updates,
        "seconds_gateway_start": round(gateway_ready - started, 3),
        "seconds_job": round(finished - job_started, 3),
        "seconds_total": round(finished - started, 3),
    }
    with open(out_path, "w", encoding="utf-8") as handle:
        json.dump(out, handle, indent=2)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
