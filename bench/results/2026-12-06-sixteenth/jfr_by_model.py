"""JFR samples grouped by the SQL execution (eventlog) they fall in; top self methods and
top 'inclusive' frames of Spark expression classes per execution."""
import collections
import datetime
import json
import re
import sys

jfr_txt, eventlog = sys.argv[1], sys.argv[2]
want = sys.argv[3] if len(sys.argv) > 3 else None
execs = []
for line in open(eventlog):
    e = json.loads(line)
    ev = e["Event"]
    if ev.endswith("SQLExecutionStart"):
        pd = e.get("physicalPlanDescription", "")
        m = re.search(r"Arguments: file:[^,]*\.db/(\w+)", pd) or re.search(r"\.db/(\w+)", pd)
        execs.append({"id": e["executionId"], "desc": (m.group(1) if m else e.get("description", ""))[:80], "start": e["time"]})
    elif ev.endswith("SQLExecutionEnd"):
        for x in execs:
            if x["id"] == e["executionId"]:
                x["end"] = e["time"]
day0 = None
FRAME = re.compile(r"^\s+([\w$.<>]+)\(.*?\)(?: line: (\d+))?$", re.M)
samples = []
for ev in open(jfr_txt).read().split("jdk.ExecutionSample {")[1:]:
    t = re.search(r"startTime = (\d+):(\d+):(\d+\.\d+)", ev)
    frames = FRAME.findall(ev.split("stackTrace = [", 1)[-1])
    if not t or not frames:
        continue
    secs = int(t.group(1)) * 3600 + int(t.group(2)) * 60 + float(t.group(3))
    samples.append((secs, [f for f, _ in frames]))
# eventlog times are epoch ms UTC; JFR startTime is UTC time of day
def tod(ms):
    d = datetime.datetime.utcfromtimestamp(ms / 1000)
    return d.hour * 3600 + d.minute * 60 + d.second + d.microsecond / 1e6
groups = collections.defaultdict(list)
for secs, frames in samples:
    owner = "other"
    for x in execs:
        if "end" in x and tod(x["start"]) <= secs <= tod(x["end"]):
            owner = f"{x['id']}:{x['desc']}"
    groups[owner].append(frames)
tot = len(samples)
for owner, stacks in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:25]:
    print(f"{len(stacks):6d} {100*len(stacks)/tot:5.1f}%  {owner}")
for owner, stacks in sorted(groups.items(), key=lambda kv: -len(kv[1])):
    if want and want not in owner:
        continue
    if not want and len(stacks) < 0.04 * tot:
        continue
    print(f"\n== {owner}: {len(stacks)} samples")
    own = collections.Counter(s[0] for s in stacks)
    for m, c in own.most_common(15):
        print(f"  self {100*c/len(stacks):5.1f}%  {m}")
    incl = collections.Counter()
    for s in stacks:
        seen = set()
        for f in s:
            k = f.rsplit(".", 1)[0]
            if k not in seen and ("catalyst.expressions" in k or "datasources" in k or "regex" in k or "jackson" in k or "Variant" in k or "MessageDigest" in k or "UTF8String" in k or "parquet" in k.lower() or "codegen" in k or "janino" in k or "analysis" in k or "optimizer" in k):
                incl[k] += 1
                seen.add(k)
    for k, c in incl.most_common(25):
        print(f"  incl {100*c/len(stacks):5.1f}%  {k}")
