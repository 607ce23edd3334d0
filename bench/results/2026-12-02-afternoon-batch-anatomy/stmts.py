"""Statements of each dbt invocation in dbt.log: connection, first SQL words, seconds."""
import re, sys, collections
log = open(sys.argv[1], errors='replace').read().splitlines()
which = int(sys.argv[2]) if len(sys.argv) > 2 else -1
ansi = re.compile(r'\x1b\[[0-9;]*m')
invs = []; cur = None; pending = None
for raw in log:
    line = ansi.sub('', raw)
    m = re.match(r'(\d\d:\d\d:\d\d\.\d+) \[\w+\s*\] \[[^\]]*\]: (.*)', line)
    if not m:
        if pending is not None and pending[2] == '' and line.strip() and not line.startswith('/*'):
            pending[2] = line.strip()[:110]
        continue
    t, msg = m.groups()
    if msg.startswith('Running with dbt='):
        cur = []; invs.append(cur); continue
    mm = re.match(r'On ([^:]+): (.*)', msg)
    if mm and cur is not None:
        rest = re.sub(r'/\*.*?\*/', '', mm.group(2)).strip()
        pending = [t, mm.group(1), rest[:110]]
        continue
    ms = re.match(r'SQL status: (\S+) in ([\d.]+) seconds', msg)
    if ms and pending is not None and cur is not None:
        cur.append((pending[0], pending[1], pending[2], float(ms.group(2)))); pending = None
inv = invs[which]
print(len(invs), 'invocations; this one', len(inv), 'statements', round(sum(s[3] for s in inv), 2), 's')
kinds = collections.Counter(); ksum = collections.Counter()
for t, conn, sql, sec in inv:
    k = ' '.join(sql.split()[:2]).lower()
    kinds[k] += 1; ksum[k] += sec
for k, n in kinds.most_common(): print(f'{n:4d} {ksum[k]:7.2f}  {k}')
if '-v' in sys.argv:
    for t, conn, sql, sec in inv: print(t, f'{sec:6.2f}', conn[:50], '|', sql[:90])
