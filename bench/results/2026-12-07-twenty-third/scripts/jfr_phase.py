import json, collections, sys
d=json.load(open(sys.argv[1])); start,end=sys.argv[2],sys.argv[3]; want=sys.argv[4]
phases=[("parse","AbstractSqlParser.parsePlan"),("parse","AbstractParser.parse"),("analyze","Analyzer.executeAndCheck"),("analyze","QueryExecution.assertAnalyzed"),("analyze","QueryExecution.$anonfun$analyzed"),
("optimize","QueryExecution.$anonfun$optimizedPlan"),("optimize","Optimizer."),("plan","QueryExecution.$anonfun$sparkPlan"),("plan","QueryExecution$.createSparkPlan"),("prepare","QueryExecution$.prepareForExecution"),("prepare","QueryExecution.$anonfun$executedPlan"),
("aqe","AdaptiveSparkPlanExec"),("catalog(hive)","HiveExternalCatalog"),("catalog(session)","SessionCatalog"),("write","FileFormatWriter"),("collect","Dataset.collect"),("py4j-call","Gateway"),]
c=collections.Counter(); cmd=collections.Counter()
for e in d["recording"]["events"]:
    v=e["values"]; t=v["startTime"][11:19]
    if not (start<=t<=end): continue
    th=(v.get("sampledThread") or {}).get("javaName","?")
    th="task" if th.startswith("Executor task") else ("py4j" if th.startswith("Thread-") else "other")
    if th!=want: continue
    fr=(v.get("stackTrace") or {}).get("frames") or []
    names=[f["method"]["type"]["name"].split('/')[-1]+"."+f["method"]["name"] for f in fr]
    ph="?"
    for n in names:  # innermost first
        for label,pat in phases:
            if pat in n: ph=label; break
        if ph!="?": break
    c[ph]+=1
    if ph=="?" : cmd[" < ".join(names[:3])+" ... "+" < ".join(names[-6:])]+=1
tot=sum(c.values())
for k,n in c.most_common(): print(f"{n:5} {100*n/tot:5.1f}% {k}")
print("--- unknown")
for k,n in cmd.most_common(8): print(n,k)
