"""Per dbt invocation in dbt.log since HH:MM:SS: the seconds of the two state layers' nodes and
of the whole node run (first node start to last node end). Usage: state_times.py LOG SINCE"""
import re, sys
from datetime import datetime
pat = re.compile(r'^\x1b\[0m(\d\d:\d\d:\d\d\.\d+) \[\w+\s*\] \[[^\]]+\]: (.*)')
since = sys.argv[2]; inv = None; out = []
def ts(s): return datetime.strptime(s, '%H:%M:%S.%f')
for line in open(sys.argv[1], errors='replace'):
    m = pat.match(line)
    if not m or m.group(1) < since: continue
    t, msg = m.group(1), m.group(2)
    if msg.startswith('Concurrency:'):
        inv = {'start': t, 'nodes': {}, 'first': None, 'last': None}; out.append(inv); continue
    if inv is None: continue
    b = re.match(r'(Began|Finished) running node model\.\w+\.(\S+)', msg)
    if b:
        name = b.group(2)
        if b.group(1) == 'Began':
            inv['nodes'][name] = [t, None]; inv['first'] = inv['first'] or t
        else:
            inv['nodes'][name][1] = t; inv['last'] = t
for inv in out:
    n = inv['nodes']
    def d(k): return (ts(n[k][1]) - ts(n[k][0])).total_seconds() if k in n and n[k][1] else 0
    if d('int_current_state_layers') < 0.3: continue
    print(inv['start'], f"nodes {(ts(inv['last'])-ts(inv['first'])).total_seconds():5.2f} cs {d('int_current_state_layers'):5.2f} rh {d('int_row_history_layers'):5.2f} redeliv {d('int_redelivered_changes'):4.2f} halves {d('int_update_halves_paired'):4.2f}")
