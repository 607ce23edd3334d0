"""Per dbt node of one invocation, from dbt.log: total, compile (Began running -> Began executing,
with the queries sent meanwhile) and execution seconds, with their queries. Usage: node_gaps.py LOG_SLICE"""
import re,sys
from datetime import datetime
pat=re.compile(r'^\x1b\[0m(\d\d:\d\d:\d\d\.\d+) \[(\w+)\s*\] \[([^\]]+)\]: (.*)')
rows=[]
for line in open(sys.argv[1],errors='replace'):
    m=pat.match(line)
    if m: rows.append((datetime.strptime(m.group(1),'%H:%M:%S.%f'),m.group(3).strip(),m.group(4)))
t0=rows[0][0]
cur={}
for t,th,msg in rows:
    s=(t-t0).total_seconds()
    m=re.match(r'Began running node (\S+)',msg)
    if m: cur[th]={'node':m.group(1).split('.')[-1],'start':s,'q':[],'exec':None}; continue
    if th not in cur: continue
    c=cur[th]
    m=re.match(r'SQL status: OK in ([\d.]+)',msg)
    if m: c['q'].append((c['exec'] is not None, float(m.group(1))))
    if msg.startswith('Began executing'): c['exec']=s
    if msg.startswith('Finished running node'):
        if c['node'].startswith(('operations','stream_report','table_history','current_tables')): continue
        pre=[q for e,q in c['q'] if not e]; post=[q for e,q in c['q'] if e]
        ex=c['exec'] or s
        print(f"{c['node'][:34]:34} total {s-c['start']:5.2f} compile {ex-c['start']:5.2f} (queries {len(pre)}: {sum(pre):.2f}) exec {s-ex:5.2f} (queries {len(post)}: {sum(post):.2f})")
