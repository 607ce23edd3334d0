import re,sys,collections
node=None; sql=None; out=[]
lines=open(sys.argv[1],errors='replace').read().split('\n')
i=0
for i,l in enumerate(lines):
    m=re.search(r'Began running node (\S+)',l)
    if m: node=m.group(1)
    m=re.search(r'On ([\w.]+): (.*)',l)
    if m and 'debug' in l:
        sql=(m.group(2)+' '+(lines[i+1] if i+1<len(lines) else ''))[:150]
    m=re.search(r'SQL status: (\S+) in ([\d.]+) seconds',l)
    if m:
        out.append((float(m.group(2)),node,sql))
tot=collections.defaultdict(float); cnt=collections.Counter()
for t,n,s in out: tot[n]+=t; cnt[n]+=1
print('statements',len(out),'sum',round(sum(t for t,_,_ in out),1))
for n in sorted(tot,key=lambda n:-tot[n])[:25]: print(round(tot[n],2),cnt[n],n)
print('--- slowest statements')
for t,n,s in sorted(out,key=lambda x: -x[0])[:40]: print(round(t,2),(n or '').split('.')[-1][:40],'|',(s or '').replace('\n',' ')[:110])
