"""Per thread of one dbt invocation (a dbt.log slice): every pause over MIN seconds between two
log lines of that thread, with the node it ran and the start of the last SQL sent before it
(dbt's "SQL status" times a query's planning, not the fetch of its rows: the pause after it
is the real cost). Usage: gaps.py LOG_SLICE [MIN]"""
import re, sys
from datetime import datetime
pat = re.compile(r'^\x1b\[0m(\d\d:\d\d:\d\d\.\d+) \[(\w+)\s*\] \[([^\]]+)\]: (.*)')
minimum = float(sys.argv[2]) if len(sys.argv) > 2 else 0.1
last = {}; node = {}; sql = {}; pending = None
for line in open(sys.argv[1], errors='replace'):
    m = pat.match(line)
    if not m:
        if pending is not None and line.strip() and not line.startswith('['):
            sql[pending] = (sql.get(pending, '') + ' ' + line.strip())[:150]
        continue
    t = datetime.strptime(m.group(1), '%H:%M:%S.%f'); th = m.group(3).strip(); msg = m.group(4)
    pending = None
    n = re.match(r'Began running node (\S+)', msg)
    if n: node[th] = n.group(1).split('.')[-1]
    if msg.startswith('On ') and '*/' in msg:
        pending = th; sql[th] = msg.split('*/', 1)[1].strip()[:150]
    if th in last:
        gap = (t - last[th][0]).total_seconds()
        if gap >= minimum:
            print(f"{m.group(1)} {th[:10]:10} {node.get(th, '-')[:28]:28} {gap:5.2f} after: {last[th][1][:60]!r} sql: {sql.get(th, '')[:110]!r}")
    last[th] = (t, msg)
