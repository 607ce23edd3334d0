"""Where a warm watch batch's time goes, over back-to-back 1,000-message batches 3..8:
PROFILER=py-spy samples the watch's Python (every thread, idle frames included, raw stacks);
PROFILER=jfr records the driver JVM with Java Flight Recorder (settings=profile).

    .venv/bin/python watch_profile.py WORK OUT"""
import os, subprocess, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from watch_batches import N, ROOT, move_in, start_watch, wait_for_batch
root = Path(sys.argv[1]); out = Path(sys.argv[2])
PROFILER = os.environ.get("PROFILER", "py-spy")
w, stream, inbox = start_watch(root)
lat = []; spy = None
for i in range(1, N + 1):
    if i == 3 and PROFILER == "jfr":
        jvm = subprocess.run(["pgrep", "-f", f"java.*{root}/local"], capture_output=True, text=True).stdout.split()
        jvm = jvm or subprocess.run(["pgrep", "-n", "java"], capture_output=True, text=True).stdout.split()
        subprocess.run(["jcmd", jvm[0], "JFR.start", "name=watch", "settings=profile", f"filename={out}"], check=True)
    elif i == 3:
        spy = subprocess.Popen([str(ROOT / ".venv/bin/py-spy"), "record", "--pid", str(w.pid), "--idle",
                                "--rate", "50", "--format", "raw", "-o", str(out)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
    s = time.perf_counter()
    move_in(stream, inbox, i)
    line = wait_for_batch(w, i)
    lat.append(round(time.perf_counter() - s, 2))
    print(i, lat[-1], line.strip(), flush=True)
if PROFILER == "jfr":
    subprocess.run(["jcmd", jvm[0], "JFR.stop", "name=watch"], check=True)
else:
    spy.send_signal(2); spy.wait(timeout=60)
w.terminate(); w.wait(timeout=300)
print(f"latencies {lat} load {os.getloadavg()[0]:.2f}", flush=True)
