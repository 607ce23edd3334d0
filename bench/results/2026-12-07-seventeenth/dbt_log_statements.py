"""Per-node and per-statement times of one dbt invocation in a dbt.log."""
import re, sys, collections, datetime as dt
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
inv = text.split("Running with dbt=")
last = inv[int(sys.argv[2]) if len(sys.argv) > 2 else -1]
line_re = re.compile(r"(\d\d:\d\d:\d\d\.\d+) \[\w+\s*\] \[([^\]]+)\]: (.*)")
def t(s): return dt.datetime.strptime(s, "%H:%M:%S.%f").timestamp()
cur = {}; stmts = []; nodes = {}
lines = last.split("\n")
for i, ln in enumerate(lines):
    m = line_re.search(ln)
    if not m: continue
    ts, th, msg = t(m.group(1)), m.group(2).strip(), m.group(3)
    if msg.startswith("On ") and ": /*" in msg:
        node = msg[3:].split(":")[0].split(".")[-1]
        # the statement text: following lines until the next log line
        body = []
        for nxt in lines[i+1:i+40]:
            if line_re.search(nxt): break
            body.append(nxt)
        cur[th] = (node, ts, " ".join(" ".join(body).split())[:90])
    elif msg.startswith("SQL status") and th in cur:
        node, st, words = cur.pop(th)
        secs = float(re.search(r"in ([0-9.]+) seconds", msg).group(1))
        stmts.append((node, secs, words))
    elif msg.startswith("Began running node"):
        nodes.setdefault(msg.split(".")[-1], {})["begin"] = ts
    elif msg.startswith("Began executing node"):
        nodes.setdefault(msg.split(".")[-1], {})["exec"] = ts
    elif msg.startswith("Finished running node"):
        nodes.setdefault(msg.split(".")[-1], {})["end"] = ts
if "-v" in sys.argv:
    for node, s, w in stmts:
        print(f"{s:6.2f} {node[:32]:32} {w}")
agg = collections.defaultdict(lambda: [0, 0.0])
for node, s, w in stmts:
    agg[node][0] += 1; agg[node][1] += s
print(f"{'node':34} {'compile':>7} {'exec':>6} {'total':>6} {'stmts':>5} {'sql_s':>6}")
for node, d in nodes.items():
    if "end" not in d: continue
    c = d.get("exec", d["end"]) - d.get("begin", d.get("exec", d["end"]))
    e = d["end"] - d.get("exec", d["end"])
    print(f"{node[:34]:34} {c:7.2f} {e:6.2f} {c+e:6.2f} {agg[node][0]:5d} {agg[node][1]:6.2f}")
print("statements", len(stmts), "sql sum", round(sum(s for _, s, _ in stmts), 2))
ts = [t(x) for x in re.findall(r"(\d\d:\d\d:\d\d\.\d+) \[", last)]
print("invocation span", round(ts[-1] - ts[0], 2))
