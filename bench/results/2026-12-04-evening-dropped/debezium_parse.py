"""The lead for Debezium's staging: reading its messages through VARIANT (as the model does:
try_parse_json, the payload envelope, try_variant_get of each block) against one from_json
with a narrow schema. Noop sink, warm JVM, on a benchmark's warehouse; then the text both give
for a few JSON numbers.

    .venv/bin/python bench/results/2026-12-04-evening-dropped/debezium_parse.py bench/work/runs/main/cdc_local
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-03-night-one-shuffle"))
from ab_compiled_sql import session  # noqa: E402

spark = session(sys.argv[1])
SOURCE = "bench_landing.raw_debezium"
ENVELOPE = f"select coalesce(try_variant_get(v, '$.payload'), v) as e from (select try_parse_json(raw_value) as v from {SOURCE})"
BLOCKS = ("select try_variant_get(e, '$.before', 'map<string, variant>') as b, try_variant_get(e, '$.after', 'map<string, variant>') as a,"
          " try_variant_get(e, '$.source', 'map<string, variant>') as s, try_variant_get(e, '$.op', 'string') as op,"
          f" try_variant_get(e, '$.ts_ms', 'bigint') as ts from ({ENVELOPE})")
queries = {
    "variant, blocks": BLOCKS,
    "variant, blocks and their values as text": "select transform_values(b, (k, x) -> cast(x as string)) as b,"
        " transform_values(a, (k, x) -> cast(x as string)) as a, transform_values(s, (k, x) -> cast(x as string)) as s,"
        f" op, ts from ({BLOCKS})",
    "from_json, narrow schema": "select m.before, m.after, m.source, m.op, m.ts_ms from (select from_json(raw_value, "
        f"'struct<before: map<string, string>, after: map<string, string>, source: map<string, string>, op: string, ts_ms: bigint>') as m from {SOURCE})",
}
for rep in range(4):
    for name, query in queries.items():
        start = time.perf_counter()
        spark.sql(query).write.format("noop").mode("overwrite").save()
        print(rep, name, round(time.perf_counter() - start, 2), flush=True)
numbers = '{"a": 1.0e3, "b": 1.50, "c": 12345678901234567890123, "d": -0.0, "e": 1E2, "f": 100}'
row = spark.sql(f"select from_json(j, 'map<string, string>') as f, cast(try_variant_get(try_parse_json(j), '$',"
                f" 'map<string, variant>') as map<string, string>) as v from values ('{numbers}') as t(j)").first()
print("from_json:", row.f)
print("variant:  ", row.v)
