import re,sys,glob,os
def ts(s):
    h,m,x=s.split(':'); return int(h)*3600+int(m)*60+float(x)
agg={}
for f in sorted({os.path.realpath(p) for p in glob.glob(sys.argv[1]+"/**/logs/dbt.log",recursive=True)}):
    txt=re.sub(r'\x1b\[[0-9;]*m','',open(f,encoding='utf-8',errors='replace').read())
    for part in txt.split('Running with dbt=')[1:]:
        if "Command `cli build`" not in part and "Command `build`" not in part: continue
        starts={}
        for line in part.splitlines():
            m2=re.match(r'(\d\d:\d\d:\d\d\.\d+) .*Began running node (\S+)',line)
            if m2: starts[m2.group(2)]=ts(m2.group(1)); continue
            m3=re.match(r'(\d\d:\d\d:\d\d\.\d+) .*Finished running node (\S+)',line)
            if m3 and m3.group(2) in starts:
                d=ts(m3.group(1))-starts.pop(m3.group(2))
                n=m3.group(2); parts=n.split('.')
                key=parts[0]+'.'+re.sub(r'\.[0-9a-f]{10}$','',parts[2]) if len(parts)>2 else n
                a=agg.setdefault(key,[0,0.0]); a[0]+=1; a[1]+=d
tot=sum(v[1] for v in agg.values())
print('total',round(tot,1))
for k,v in sorted(agg.items(),key=lambda x:-x[1][1])[:int(sys.argv[2]) if len(sys.argv)>2 else 60]:
    print(f"{v[1]:8.1f} {v[0]:4d} {v[1]/v[0]:6.2f} {k[:110]}")
