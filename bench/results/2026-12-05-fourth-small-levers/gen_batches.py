"""Batches of 200 messages per format (seed 20261124), as bench/small.py writes them.

    PYTHONPATH=. .venv/bin/python bench/results/2026-12-05-fourth-small-levers/gen_batches.py OUT N
"""
import sys
from pathlib import Path

from bench.generate import generate_format

for format_id in ["dataworks", "datahub_tuple", "canal", "debezium", "shareplex"]:
    generate_format(format_id, [200] * int(sys.argv[2]), 20261124, Path(sys.argv[1]), file_lines=0)
