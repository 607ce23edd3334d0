"""Each test pipeline's dbt invocations and their walls, heaviest pipeline first, read with
../2026-12-06-tenth/dbt_logs.py from every pipeline's logs/dbt.log.

    python dbt_logs_by_pipeline.py BASETEMP [N]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "2026-12-06-tenth"))
import dbt_logs  # noqa: E402

rows = []
for name, runs in dbt_logs.invocations(sys.argv[1]):
    wall = sum(run[1] for run in runs)
    rows.append((wall, name, len(runs), " ".join(f"{command}:{seconds:.0f}" for command, seconds, _ in runs)))
for wall, name, count, commands in sorted(rows, reverse=True)[: int(sys.argv[2]) if len(sys.argv) > 2 else 40]:
    print(f"{wall:7.1f} {count:3d} {name[:40]:40s} {commands[:150]}")
print(f"total {sum(row[0] for row in rows):.1f}")
