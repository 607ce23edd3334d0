import re, sys, time, os
exec(open('/work/exp/s20/replay.py').read().split('for rep in range(reps):')[0])
MODE = os.environ.get('MODE', 'cache')
for rep in range(reps):
    print('--- rep', rep, MODE)
    names = {}
    for i, (n, orig, sql) in enumerate(stmts):
        low = sql.lstrip().lower()
        if not low.startswith("drop view"):
            for a, b in names.items(): sql = sql.replace(a, b)
        if low.startswith('cache table cdc_new') and MODE == 'table':
            name = sql.split()[2]; tbl = f'bench_staging.{name}_t'
            spark.sql(f'drop table if exists {tbl}')
            t = time.perf_counter()
            spark.sql(f'create table {tbl} using parquet as ' + sql.split(' as ', 1)[1])
            print(f'  materialize {time.perf_counter()-t:.2f}')
            names[name] = tbl
            continue
        if low.startswith('insert'):
            sel = sql[re.search(r'\bselect\b', sql, re.I).start():]
            t = time.perf_counter(); spark.sql(sel).write.format('noop').mode('overwrite').save(); el = time.perf_counter() - t
            print(f'  {n[:28]:28s} select {el:.2f}', flush=True)
        else:
            t = time.perf_counter()
            spark.sql(sql).collect() if low.startswith(('select','with')) else spark.sql(sql)
            if low.startswith('cache'): print(f'  cache {time.perf_counter()-t:.2f}')
