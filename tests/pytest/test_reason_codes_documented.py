"""Every quarantine reason code of the seed cdc_quarantine_reasons is documented in
docs/quarantine.md.

The data test assert_quarantine_reasons_are_documented proves every code that reaches
`quarantine` is one of the seed's codes; this closes the chain up to the docs.
"""

from __future__ import annotations

import csv
import re

from .conftest import PROJECT_DIR


def defined_codes() -> dict[str, str]:
    """reason_code -> meaning, from seeds/cdc_quarantine_reasons.csv."""
    with open(PROJECT_DIR / "seeds" / "cdc_quarantine_reasons.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert all(row["reason_code"] and row["meaning"] for row in rows)
    return {row["reason_code"]: row["meaning"] for row in rows}


def test_every_reason_code_is_documented_with_an_example():
    codes = defined_codes()
    assert {"not_json", "missing_key", "legacy_layout", "undecodable_value"} <= set(codes)
    documented = {}
    for line in (PROJECT_DIR / "docs" / "quarantine.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[0].startswith("`"):
            for code in re.findall(r"`([a-z_]+)`", cells[0]):
                documented[code] = cells[-1]
    missing = sorted(set(codes) - set(documented))
    assert not missing, f"reason codes without a row in docs/quarantine.md: {missing}"
    without_example = sorted(code for code in codes if not documented[code])
    assert not without_example, f"documented without an example: {without_example}"


def test_every_reason_code_says_what_its_detail_holds():
    text = (PROJECT_DIR / "docs" / "quarantine.md").read_text()
    section = text.split("## What `reason_detail` says", 1)[1].split("\n## ", 1)[0]
    described = set()
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            assert cells[1] and cells[2], f"a reason_detail row without its description or example: {line}"
            described.update(re.findall(r"`([a-z_]+)`", cells[0]))
    missing = sorted(set(defined_codes()) - described)
    assert not missing, f"reason codes whose reason_detail docs/quarantine.md does not describe: {missing}"
