"""The SQL layer's shape, checked on the parsed project (every format enabled).

- No mart reads a source: marts build on staging and intermediate models only.
- Each staging model holds its vendor's flow as CTEs ending in `contract_rows`, not a call to a
  flow macro.
"""

from __future__ import annotations

import json
import os

import pytest

from .conftest import PROJECT_DIR

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
        assert "\nparsed as (" in code or "\ndecoded as (" in code, name
        assert "\ncontract_rows as (" in code, name
        assert "staged_event_columns('contract_rows'" in code, name
        format_id = name[len("stg_") : -len("__events")]
        assert f"{format_id}__events(" not in code, f"{name} calls a flow macro"
