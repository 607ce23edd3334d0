"""Aggregate JFR execution samples (jfr print --json --events jdk.ExecutionSample) within
[START, END] (HH:MM:SS UTC, optional): top frames, top self packages, and inclusive counts of
selected methods. Usage: jfr_top.py FILE.json [START END]"""
import json, sys, collections
d = json.load(open(sys.argv[1]))
ev = d["recording"]["events"]
start = sys.argv[2] if len(sys.argv) > 2 else None
end = sys.argv[3] if len(sys.argv) > 3 else None
top = collections.Counter(); pkg = collections.Counter(); incl = collections.Counter(); threads = collections.Counter()
n = 0
for e in ev:
    v = e["values"]
    t = v["startTime"][11:19]
    if start and not (start <= t <= end):
        continue
    frames = (v.get("stackTrace") or {}).get("frames") or []
    if not frames:
        continue
    n += 1
    threads[(v.get("sampledThread") or {}).get("javaName", "?")[:30]] += 1
    f0 = frames[0]["method"]
    name = f0["type"]["name"] + "." + f0["name"]
    top[name] += 1
    pkg[".".join(f0["type"]["name"].split(".")[:4])] += 1
    seen = set()
    for fr in frames:
        m = fr["method"]; k = m["type"]["name"] + "." + m["name"]
        if k not in seen:
            seen.add(k); incl[k] += 1
print("samples", n)
print("-- threads"); [print(f"{c:6} {k}") for k, c in threads.most_common(12)]
print("-- self, by package"); [print(f"{c:6} {k}") for k, c in pkg.most_common(25)]
print("-- self, by method"); [print(f"{c:6} {k}") for k, c in top.most_common(30)]
print("-- inclusive"); [print(f"{c:6} {k}") for k, c in incl.most_common(80)]
