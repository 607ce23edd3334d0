"""Per worker: each test file's first start, last end and summed test time (timeline.py's log)."""
import json, collections, sys
ev = [json.loads(l) for l in open(sys.argv[1] if len(sys.argv) > 1 else "timeline.jsonl")]
t0 = min(e["t"] for e in ev)
files = collections.OrderedDict()
for e in ev:
    f = e["id"].split("::")[0].split("/")[-1]
    key = (e["w"], f)
    d = files.setdefault(key, [e["t"], e["t"], 0])
    d[0] = min(d[0], e["t"]); d[1] = max(d[1], e["t"])
starts = {}
per_test = collections.defaultdict(float)
for e in ev:
    if e["ev"] == "start": starts[(e["w"], e["id"])] = e["t"]
    else:
        f = e["id"].split("::")[0].split("/")[-1]
        per_test[(e["w"], f)] += e["t"] - starts[(e["w"], e["id"])]
for w in sorted({k[0] for k in files}):
    print("==", w)
    for (ww, f), (a, b, _) in sorted(files.items(), key=lambda kv: kv[1][0]):
        if ww == w: print(f"  {a-t0:7.0f} {b-t0:7.0f} {b-a:6.0f}  sum={per_test[(ww,f)]:6.0f}  {f}")
    print("  end", max(b for (ww, f), (a, b, _) in files.items() if ww == w) - t0)
