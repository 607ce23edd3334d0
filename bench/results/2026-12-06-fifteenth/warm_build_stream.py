from pathlib import Path
from bench.generate import generate_format, FORMAT_WRITERS, base_tables
import json
formats = ["dataworks", "datahub_tuple", "canal", "shareplex", "debezium"]
out = Path("/tmp/exp15/stream")
for f in formats:
    generate_format(f, [200] * 10, 20261124, out, file_lines=0)
keys = {}
for f in formats:
    keys.update(FORMAT_WRITERS[f]().primary_keys(base_tables()))
Path("/tmp/exp15/vars.json").write_text(json.dumps({"cdc_formats": formats, "cdc_primary_keys": keys, "cdc_canal_legacy_layout": False}))
