# Two commands do everything on a fresh machine:
#   make demo   install, land the bundled samples, build, print the current state
#   make test   install, then run every test (pytest + dbt data tests + sqlfluff lint)
#   make bench  install (+ the Flink peer's venv), run the benchmark (bench/run.py, ~1-2 h)
#   make fuzz   install, mutate 100,000 messages per format, land and build them (bench/fuzz.py)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export DBT_PROFILES_DIR := $(CURDIR)/profiles
export CDC_LOCAL_DIR ?= $(CURDIR)/.cdc_local
export SPARK_LOCAL_IP := 127.0.0.1
# Test workers, each with its own embedded Spark. A test file stays on one worker (its module
# fixtures are built once); tests/pytest/conftest.py spreads the tests of files that share
# nothing, longest first (xdist would start the files with the most tests first). Two fit
# this 2-core machine: one worker alone keeps both cores about 87% busy, so more would not
# help (bench/SUMMARY.md, 2026-11-27 afternoon). TEST_WORKERS=0 runs everything in one process.
TEST_WORKERS ?= 2

.PHONY: install demo test lint lint-checks bench fuzz clean chromium cluster-start cluster-stop

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The package (UDFs + dbt adapter plugin) is installed, not linked: dbt finds adapter
# plugins only as real folders under dbt/adapters. Re-run after editing python_udfs/.
install: $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check ".[dev]"
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --force-reinstall .
	$(BIN)/cdc-pipeline jvm-archive

demo: install
	$(BIN)/cdc-pipeline demo

lint: install lint-checks

# The checks alone: `make test` has just installed, a second install would cost half a minute.
# sqlfluff in two processes: 85 s against 123 s in one on this 2-core machine, same findings.
# A model renders its `is_incremental()` branch only where its table exists, so sqlfluff lints
# twice, each on a warehouse of its own under LINT_LOCAL: an empty one (every first build),
# then one holding every format's bundled samples, landed and built with the lint's formats
# (.sqlfluff's context) in one process (every incremental branch).
LINT_LOCAL := $(CURDIR)/.lint_local
LINT_FORMATS := dataworks datahub_tuple canal shareplex debezium datastream dts_avro
comma := ,
empty :=
space := $(empty) $(empty)
LINT_VARS := {"cdc_formats": [$(subst $(space),$(comma)$(space),$(LINT_FORMATS))]}
lint-checks:
	$(BIN)/ruff check python_udfs tests
	rm -rf $(LINT_LOCAL)
	CDC_LOCAL_DIR=$(LINT_LOCAL)/empty $(BIN)/sqlfluff lint --processes 2 models tests/data_tests
	CDC_LOCAL_DIR=$(LINT_LOCAL)/built $(BIN)/cdc-pipeline watch $(addprefix samples/,$(LINT_FORMATS)) \
		--max-batches 1 --no-warm-up --dbt-command run --dbt-arg=--quiet --dbt-arg=--vars --dbt-arg='$(LINT_VARS)' > /dev/null
	CDC_LOCAL_DIR=$(LINT_LOCAL)/built $(BIN)/sqlfluff lint --processes 2 models

# The lint runs beside the tests at the lowest CPU priority: it takes the time the test workers
# leave idle (their JVMs starting, the last files' tail) instead of 85 s after them. Its
# output is printed after the tests'; either failing fails `make test`.
test: install
	@rm -f .lint-checks.log .lint-checks.rc
	@( nice -n 19 $(MAKE) --no-print-directory lint-checks > .lint-checks.log 2>&1; echo $$? > .lint-checks.rc ) & \
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder; tests=$$?; \
	wait; echo "lint (ruff, sqlfluff), run beside the tests:"; cat .lint-checks.log; \
	test $$tests -eq 0 && test "$$(cat .lint-checks.rc)" = 0

# Debian's Chromium for tests/pytest/test_docs_site.py (Playwright drives it; no browser
# download). Needs root; does nothing when chromium is already installed.
chromium:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# A Spark standalone master + 2 workers on 127.0.0.1 (docs/running-on-a-cluster.md).
cluster-start: install
	scripts/spark-cluster.sh start

cluster-stop:
	scripts/spark-cluster.sh stop

# BENCH_ARGS e.g. "--sizes 1000000 --peer-size 0" for a shorter run (bench/run.py --help)
bench: install
	bash bench/setup_flink.sh
	$(BIN)/python -m bench.run $(BENCH_ARGS)

# FUZZ_ARGS e.g. "--messages 2000 --formats canal,debezium" (bench/fuzz.py --help)
fuzz: install
	$(BIN)/python -m bench.fuzz $(FUZZ_ARGS)

clean:
	rm -rf .cdc_local target logs tests/artifacts
