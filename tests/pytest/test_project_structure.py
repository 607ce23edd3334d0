"""The SQL layer's shape, checked on the parsed project (every format enabled).

- No mart reads a source: marts build on staging and intermediate models only.
- Each staging model holds its vendor's flow as CTEs ending in `contract_rows`, not a call to a
  flow macro.
- Every model has a primary-key test: `unique` and `not_null` on one column, or
  `unique_combination_of_columns` on the model.
- The test suite's shared parse (conftest.parsed_manifest) gives a pipeline the nodes dbt's own
  parse gives for its schemas and vars, the vars it leaves out (COMPILE_TIME_VARS) included.
"""

from __future__ import annotations

import json
import os
import re

import pytest

from .conftest import COMPILE_TIME_VARS, PROJECT_DIR, loaded_manifest, parsed_manifest

ALL_FORMATS = [
    "dataworks",
    "datahub_tuple",
    "canal",
    "shareplex",
    "debezium",
    "datastream",
    "dts_avro",
]


@pytest.fixture(scope="module")
def manifest(tmp_path_factory):
    from dbt.cli.main import dbtRunner

    work = tmp_path_factory.mktemp("structure")
    os.environ.setdefault("DBT_PROFILES_DIR", str(PROJECT_DIR / "profiles"))
    result = dbtRunner().invoke(
        [
            "parse",
            "--project-dir",
            str(PROJECT_DIR),
            "--profiles-dir",
            str(PROJECT_DIR / "profiles"),
            "--target-path",
            str(work / "target"),
            "--log-path",
            str(work / "logs"),
            "--vars",
            json.dumps({"cdc_formats": ALL_FORMATS}),
        ]
    )
    assert result.success, result.exception
    return result.result


def models(manifest, folder: str):
    return [
        node
        for node in manifest.nodes.values()
        if node.resource_type == "model" and node.original_file_path.startswith(f"models/{folder}/")
    ]


def test_no_mart_reads_a_source(manifest):
    marts = models(manifest, "marts")
    assert len(marts) >= 8
    reading_sources = {
        node.name: [parent for parent in node.depends_on.nodes if parent.startswith("source.")]
        for node in marts
    }
    assert not {name: parents for name, parents in reading_sources.items() if parents}


def test_each_staging_model_holds_its_vendors_flow(manifest):
    staging = {
        node.name: node for node in models(manifest, "staging") if node.name.endswith("__events")
    }
    assert set(staging) == {f"stg_{format_id}__events" for format_id in ALL_FORMATS}
    for name, node in staging.items():
        code = node.raw_code
        format_id = name[len("stg_") : -len("__events")]
        assert re.search(r"(\n|\nwith )(parsed|decoded) as \(", code), name
        assert "\ncontract_rows as (" in code, name
        assert re.search(rf"staged_event_columns\(\s*'contract_rows', '{format_id}'", code), name
        assert f"{format_id}__events(" not in code, f"{name} calls a flow macro"


def test_every_model_has_a_primary_key_test(manifest):
    checks: dict[str, set[tuple[str, str]]] = {}
    for node in manifest.nodes.values():
        metadata = getattr(node, "test_metadata", None)
        if node.resource_type != "test" or metadata is None or len(node.depends_on.nodes) != 1:
            continue
        key = metadata.kwargs.get("column_name") or ",".join(metadata.kwargs.get("combination_of_columns") or [])
        checks.setdefault(node.depends_on.nodes[0], set()).add((metadata.name, key))
    every_model = [node for node in manifest.nodes.values() if node.resource_type == "model"]
    assert len(every_model) >= 25
    without = []
    for node in every_model:
        tests = checks.get(node.unique_id, set())
        unique_columns = {column for name, column in tests if name == "unique"}
        not_null_columns = {column for name, column in tests if name == "not_null"}
        if not (unique_columns & not_null_columns or any(name == "unique_combination_of_columns" for name, _ in tests)):
            without.append(node.name)
    assert not without, f"models without a primary-key test: {sorted(without)}"


def test_the_suites_shared_parse_equals_dbts_own_for_a_schema(tmp_path, monkeypatch):
    """The manifest a pipeline is handed (parsed once under a placeholder schema, its own schema
    written in, without the vars that matter only when a node compiles) has every node and
    source exactly as a parse for that schema and every one of those vars has it."""
    from dbt.cli.main import dbtRunner

    schema = "structure_parse_check"
    dbt_vars = {"cdc_landing_schema": f"{schema}_landing", "cdc_formats": ALL_FORMATS, **COMPILE_TIME_VARS}
    monkeypatch.setenv("CDC_SCHEMA", schema)
    own = dbtRunner().invoke([
        "parse", "--quiet", "--no-partial-parse",
        "--project-dir", str(PROJECT_DIR), "--profiles-dir", str(PROJECT_DIR / "profiles"),
        "--target-path", str(tmp_path / "target"), "--log-path", str(tmp_path / "logs"),
        "--vars", json.dumps(dbt_vars),
    ])
    assert own.success, own.exception
    shared = loaded_manifest(parsed_manifest(schema, dbt_vars, tmp_path))

    def resources(manifest) -> dict:
        return {
            unique_id: {k: v for k, v in node.to_dict().items() if k != "created_at"}
            for unique_id, node in {**manifest.nodes, **manifest.sources}.items()
        }

    expected, got = resources(own.result), resources(shared)
    assert set(got) == set(expected)
    assert {k for k in expected if got[k] != expected[k]} == set()
    assert any(node["schema"] == f"{schema}_landing" for node in got.values())
