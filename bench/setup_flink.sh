#!/usr/bin/env bash
# Create the Flink peer's own virtual environment (.bench/flink-venv, git-ignored) with
# apache-flink 2.3 from PyPI. Idempotent: an existing venv with the pinned version is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV=.bench/flink-venv
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import pyflink.version as v, sys; sys.exit(v.__version__ != '2.3.0')" 2>/dev/null; then
    echo "Flink venv ready: $VENV"
    exit 0
fi
mkdir -p .bench
"$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check -r bench/flink/requirements.txt
echo "Flink venv ready: $VENV"
