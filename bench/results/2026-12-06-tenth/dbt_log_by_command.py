import re,sys,glob,datetime
tot={'inv':0,'wall':0.0,'model':0.0,'test':0.0,'seed':0.0,'unit':0.0,'op':0.0}
bycmd={}
def ts(s): 
    h,m,x=s.split(':'); return int(h)*3600+int(m)*60+float(x)
import os
for f in sorted({os.path.realpath(p) for p in glob.glob(sys.argv[1]+"/**/logs/dbt.log",recursive=True)}):
    txt=open(f,encoding='utf-8',errors='replace').read()
    txt=re.sub(r'\x1b\[[0-9;]*m','',txt)
    for part in txt.split('Running with dbt=')[1:]:
        m=re.search(r"Command `(?:cli )?([\w-]+)` \w+ at [\d:.]+ after ([\d.]+) seconds",part)
        if not m: continue
        cmd=m.group(1); w=float(m.group(2))
        b=bycmd.setdefault(cmd,[0,0.0,0.0,0.0]); b[0]+=1; b[1]+=w
        for mm in re.finditer(r']: \d+ of \d+ (\S+) (.*?) in ([0-9.]+)s\]$',part,re.M):
            pass
        cur=None
        for line in part.splitlines():
            m2=re.search(r'Began running node (\S+)',line)
            if m2: cur=m2.group(1); continue
            m3=re.search(r'Finished running node (\S+)',line)
        for m4 in re.finditer(r'\[(\w+)\s*\]: \d+ of \d+ (?:OK|PASS|FAIL|ERROR|WARN|SKIP)[^\n]*? (\S+)\s+\.*\s*\[.*? in ([0-9.]+)s\]',part):
            pass
        # node durations via Began/Finished timestamps
        starts={}
        for line in part.splitlines():
            m2=re.match(r'(\d\d:\d\d:\d\d\.\d+) .*Began running node (\S+)',line)
            if m2: starts[m2.group(2)]=ts(m2.group(1)); continue
            m3=re.match(r'(\d\d:\d\d:\d\d\.\d+) .*Finished running node (\S+)',line)
            if m3 and m3.group(2) in starts:
                d=ts(m3.group(1))-starts.pop(m3.group(2))
                k=m3.group(2).split('.')[0]
                if k=='model': b[2]+=d
                elif k in('test','unit_test'): b[3]+=d
print(f"{'cmd':14s} {'n':>4s} {'wall':>8s} {'models':>8s} {'tests':>8s}")
for c,b in sorted(bycmd.items(),key=lambda x:-x[1][1]): print(f"{c:14s} {b[0]:4d} {b[1]:8.1f} {b[2]:8.1f} {b[3]:8.1f}")
