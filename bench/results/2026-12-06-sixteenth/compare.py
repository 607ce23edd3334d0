"""The paired 1M mixed runs of this folder side by side: old (HEAD) and new (the change),
in the order they ran: res-* and dict-* new first, res2-* and dict2-* old first. res*: the
partitioned writes without a sort (old 574dfdf); dict*: the 64 KiB dictionaries (old 57199bb).

    python3 bench/results/2026-12-06-sixteenth/compare.py
"""
import json
from pathlib import Path

HERE = Path(__file__).parent
for old, new in (("res-old", "res-new"), ("res2-old", "res2-new"), ("dict-old", "dict-new"), ("dict2-old", "dict2-new")):
    data = {s: json.loads((HERE / f"1m-main-{s}.json").read_text()) for s in (old, new)}
    runs = {s: d["results"]["main"] for s, d in data.items()}
    figures = {s: d["figures"] for s, d in data.items()}
    print(f"== {old} vs {new}")
    for k in ("full_build_seconds", "dbt_run_seconds", "incremental_seconds", "incremental_dbt_run_seconds",
              "incremental_vs_full", "full_build_vs_floor"):
        print(f"  {k:30s} {figures[old]['main'][k]:8} {figures[new]['main'][k]:8}")
    for k in ("full_build_cpu_seconds", "incremental_cpu_seconds", "incremental_vs_full_cpu"):
        print(f"  {k:30s} {figures[old]['main_cpu'][k]:8} {figures[new]['main_cpu'][k]:8}")
    staging = [sum(v for m, v in runs[s]["build_models"].items() if m.startswith("stg_")) for s in (old, new)]
    print(f"  build staging models, summed     {staging[0]:7.2f} {staging[1]:7.2f}")
    for step in ("build_models", "increment_models"):
        for model in ("int_current_state_layers", "int_row_history_layers", "int_stream_batches"):
            print(f"  {step[:5]} {model:28s} {runs[old][step][model]:7.2f} {runs[new][step][model]:7.2f}")
    print("  verified", runs[old]["verify"]["ok"], runs[new]["verify"]["ok"])
