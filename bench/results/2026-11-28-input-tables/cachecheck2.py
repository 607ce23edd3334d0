import re, sys, time, os
exec(open('/work/exp/s20/replay.py').read().split('for rep in range(reps):')[0])
for i, (n, orig, sql) in enumerate(stmts):
    if sql.lstrip().lower().startswith('cache table cdc_new'):
        spark.sql(sql); name = sql.split()[2]; break
def count(q):
    p = spark.sql(q)._jdf.queryExecution().executedPlan().toString()
    return p.count('In-memory'), p.count('FileScan')
for q in [f'with nc as (select * from {name}) select count(*) from nc', f'select count(*) from (select changes.* from {name} as changes) nc',
          f'with nc as (select * from {name}) select count(*) from nc union all select count(*) from nc',
          f'with a as (select 1 as x) select count(*) from {name}, a',
          f'with nc as (select * from {name}) select /*+ broadcast(nc) */ count(*) from nc', f'select * from {name}', f'select count(*) from {name}', f'select * from {name} as c', f'select c.* from {name} as c',
          f'select change_id from {name}', f'select count(*) from (select * from {name})', f'select max(landed_at) from {name}']:
    print(count(q), q)
