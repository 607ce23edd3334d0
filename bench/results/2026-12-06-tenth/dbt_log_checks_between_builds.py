import re,sys,glob,os
def ts(s):
    h,m,x=s.split(':'); return int(h)*3600+int(m)*60+float(x)
rows=[]
for f in sorted({os.path.realpath(p) for p in glob.glob(sys.argv[1]+"/**/logs/dbt.log",recursive=True)}):
    txt=re.sub(r'\x1b\[[0-9;]*m','',open(f,encoding='utf-8',errors='replace').read())
    seq=[]
    for part in txt.split('Running with dbt=')[1:]:
        m=re.search(r"Command `(?:cli )?([\w-]+)` \w+ at [\d:.]+ after ([\d.]+) seconds",part)
        if not m: continue
        cmd=m.group(1)
        full='--full-refresh' in part[:3000] or "'full_refresh': True" in part[:3000]
        starts={};tt=0.0;mt=0.0
        for line in part.splitlines():
            m2=re.match(r'(\d\d:\d\d:\d\d\.\d+) .*Began running node (\S+)',line)
            if m2: starts[m2.group(2)]=ts(m2.group(1)); continue
            m3=re.match(r'(\d\d:\d\d:\d\d\.\d+) .*Finished running node (\S+)',line)
            if m3 and m3.group(2) in starts:
                d=ts(m3.group(1))-starts.pop(m3.group(2))
                if m3.group(2).startswith('test.'): tt+=d
                elif m3.group(2).startswith('model.'): mt+=d
        seq.append((cmd,float(m.group(2)),mt,tt,full))
    rows.append((f.split('/')[-3],seq))
inter=0.0;last=0.0;nb=0;ni=0
for name,seq in rows:
    b=[s for s in seq if s[0]=='build']
    for i,s in enumerate(b):
        if i<len(b)-1: inter+=s[3]; ni+=1
        else: last+=s[3]; nb+=1
print('pipelines',len(rows),'intermediate builds',ni,'test s',round(inter,1),'last builds',nb,'test s',round(last,1))
for name,seq in sorted(rows,key=lambda r:-sum(s[1] for s in r[1]))[:40]:
    print(f"{sum(s[1] for s in seq):7.1f} {name:40s} "+' '.join(f"{s[0][:5]}:{s[1]:.0f}/{s[3]:.0f}" for s in seq))
print('---- per prefix: intermediate test s')
import collections
per=collections.Counter()
for name,seq in rows:
    b=[s for s in seq if s[0]=='build']
    pre=re.sub(r'_[0-9a-f]{7}$','',name)
    per[pre]+=sum(s[3] for s in b[:-1])
for k,v in per.most_common(45): print(f"{v:7.1f} {k}")
