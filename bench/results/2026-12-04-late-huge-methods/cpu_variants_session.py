"""The embedded settings of ../2026-12-03-night-one-shuffle/ab_compiled_sql.py, plus JVM_EXTRA
(environment): extra driver JVM options."""
import os
import sys
from pathlib import Path

from pyspark.sql import SparkSession

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-03-night-one-shuffle"))
import ab_compiled_sql  # noqa: E402


def session(local_dir: str) -> SparkSession:
    return ab_compiled_sql.session(local_dir, os.environ.get("JVM_EXTRA", ""))
