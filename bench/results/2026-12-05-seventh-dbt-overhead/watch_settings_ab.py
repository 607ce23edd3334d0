"""Latency of back-to-back 1,000-message watch batches (no warm-up, idle checks deferred), per
Spark setting variant, each on its own fresh warehouse, one after another.

    .venv/bin/python watch_settings_ab.py WORK VARIANT [VARIANT...]
VARIANT: base | sp2 (2 shuffle partitions) | noaqe (adaptive execution off) | th2, th4 (2, 4 dbt threads),
or several joined by '-' (sp2-noaqe)"""
import os, re, sys, time, statistics
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from watch_batches import N, ROOT, move_in, start_watch, wait_for_batch
work = Path(sys.argv[1])


def profiles(folder: Path, aqe: bool) -> Path:
    text = (ROOT / "profiles/profiles.yml").read_text()
    if not aqe:
        text = text.replace('spark.sql.adaptive.enabled: "true"', 'spark.sql.adaptive.enabled: "false"')
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "profiles.yml").write_text(text)
    return folder


for variant in sys.argv[2:]:
    env = {"DBT_PROFILES_DIR": str(profiles(work / f"profiles-{variant}", "noaqe" not in variant))}
    if "sp2" in variant:
        env["CDC_SHUFFLE_PARTITIONS"] = "2"
    for threads in ("2", "4"):
        if f"th{threads}" in variant:
            env["CDC_THREADS"] = threads
    w, stream, inbox = start_watch(work / variant, **env)
    lat, built = [], []
    for i in range(1, N + 1):
        s = time.perf_counter()
        move_in(stream, inbox, i)
        line = wait_for_batch(w, i)
        lat.append(round(time.perf_counter() - s, 2))
        built.append(float(re.search(r"built in ([\d.]+) s", line).group(1)))
    w.terminate(); w.wait(timeout=300)
    print(f"{variant}: latency {lat} built {built} median of last 5: latency {statistics.median(lat[-5:])}"
          f" built {statistics.median(built[-5:])} load {os.getloadavg()[0]:.2f}", flush=True)
