import re,sys
from datetime import datetime
pat=re.compile(r'^\x1b\[0m(\d\d:\d\d:\d\d\.\d+) \[(\w+)\s*\] \[([^\]]+)\]: (.*)')
rows=[]
for line in open(sys.argv[1],errors='replace'):
    m=pat.match(line)
    if m: rows.append((datetime.strptime(m.group(1),'%H:%M:%S.%f'),m.group(3).strip(),m.group(4)))
t0=rows[0][0]; end=rows[-1][0]
cur={}
for t,th,msg in rows:
    s=(t-t0).total_seconds()
    m=re.match(r'Began running node (\S+)',msg)
    if m: cur[th]=(m.group(1).split('.')[-1],s)
    if msg.startswith('Finished running node') and th in cur:
        n,st=cur.pop(th); 
        if s-st>0.05: print(f"{th[-8:]:8} {st:6.2f} -> {s:6.2f}  {n}")
print("end", (end-t0).total_seconds())
