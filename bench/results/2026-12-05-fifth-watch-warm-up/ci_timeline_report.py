"""Per-file test time and each worker's order of files, from ci_timeline_plugin.py's logs.

    python3 ci_timeline_report.py [LOG_DIR]   (default /tmp/prof)"""
import json,glob,collections,sys
D = sys.argv[1] if len(sys.argv) > 1 else '/tmp/prof'
files=collections.defaultdict(float); worker_span={}
for f in sorted(glob.glob(D + '/timeline-gw*.jsonl')):
    ev=[json.loads(l) for l in open(f)]
    w=f.split('-')[-1].split('.')[0]
    starts={}
    t0=ev[0]['t']; t1=ev[-1]['t']
    worker_span[w]=(t0,t1)
    prev_end=None; seq=[]
    for e in ev:
        if e['ev']=='start': starts[e['id']]=e['t']
        else:
            d=e['t']-starts[e['id']]
            files[(w,e['id'].split('::')[0].split('/')[-1])]+=d
    print(w, 'span', round(t1-t0), 'from', t0)
byfile=collections.defaultdict(float)
for (w,fn),d in files.items(): byfile[fn]+=d
tot=sum(byfile.values())
print('total test time', round(tot))
for fn,d in sorted(byfile.items(), key=lambda x:-x[1]):
    ws=[w for (w,f2) in files if f2==fn]
    print(f"{d:8.1f} {fn} {','.join(ws)}")
# per-worker order of files
for f in sorted(glob.glob(D + '/timeline-gw*.jsonl')):
    ev=[json.loads(l) for l in open(f)]
    order=[]; 
    for e in ev:
        fn=e['id'].split('::')[0].split('/')[-1]
        if e['ev']=='start' and (not order or order[-1][0]!=fn): order.append([fn,e['t'],e['t']])
        if e['ev']=='end': order[-1][2]=e['t']
    t0=ev[0]['t']
    print(f)
    for fn,a,b in order: print(f"   {a-t0:7.0f} {b-t0:7.0f} {b-a:6.0f} {fn}")
