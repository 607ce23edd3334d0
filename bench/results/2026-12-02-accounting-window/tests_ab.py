"""Paired A/B, one warm session: the accounting and balance tests' SQL before/after, over the
1M warehouse, checked window = the last (1%) batch of each format."""
import os, re, sys, time
from pathlib import Path
sys.path.insert(0, '/work/main'); os.chdir('/work/main')
from python_udfs.pipeline.cli import spark_session, run_dbt
from python_udfs.pipeline.landing import environment_defaults
environment_defaults(Path('/work/main'))
assert run_dbt(Path('/work/main'), ['run-operation', 'create_landing_tables', '--vars', open('/tmp/prof/vars.json').read()])
spark = spark_session()
T = 'compiled/cdc_changelog/tests/data_tests/'
read = lambda wt, n: Path(f'/tmp/prof/t_{wt}', T, n + '.sql').read_text()
formats = ['dataworks', 'datahub_tuple', 'canal', 'debezium', 'shareplex']
marks = {f: spark.sql(f"select cast(max(landed_at) as string) from bench_landing.raw_{f} where landed_at < (select max(landed_at) from bench_landing.raw_{f})").collect()[0][0] for f in formats}
print('marks', marks, flush=True)
window = lambda a: '(' + ' or '.join(f"({a}.source_format = '{f}' and {a}.landed_at > timestamp'{m}')" for f, m in marks.items()) + ')'
def acct_window(sql):
    sql = sql.replace("from __dbt__cte__int_events_unioned as unioned\n    where true", "from __dbt__cte__int_events_unioned as unioned\n    where " + window('unioned'))
    sql = sql.replace("as logged\n    where true", "as logged\n    where " + window("logged"))
    return sql.replace("as pairs\n    where true", "as pairs\n    where " + window("pairs"))
def balance_window(sql):
    for f, m in marks.items():
        sql = re.sub(rf"(from bench_landing\.raw_{f}\n\s*where )", rf"\1cast(landed_at as timestamp) > timestamp'{m}' and ", sql)
        sql = sql.replace(f"from bench.stream_progress as progress\n        where progress.source_format = '{f}'",
                          f"from bench_staging.int_stream_batches as batches\n        where batches.source_format = '{f}' and batches.landed_at > timestamp'{m}'")
    return sql
A, B = 'assert_every_event_is_accounted_for', 'assert_landed_messages_balance'
variants = {'acct_old': acct_window(read('oldwt', A)), 'acct_new': acct_window(read('main', A)),
            'bal_old': read('oldwt', B), 'bal_new': balance_window(read('main', B))}
assert variants['bal_new'].count('int_stream_batches') == 7 and variants['bal_new'].count("> timestamp'") == 10
def run(name):
    t = time.perf_counter(); n = spark.sql(variants[name]).count(); return time.perf_counter() - t, n
for name in variants: print('warm', name, run(name), flush=True)
res = {}
for name in (sys.argv[1].split(',') if len(sys.argv) > 1 else ['acct_old', 'acct_new', 'acct_new', 'acct_old', 'bal_old', 'bal_new', 'bal_new', 'bal_old'] * 2):
    s, n = run(name); res.setdefault(name, []).append(round(s, 2)); print(name, round(s, 2), 'rows', n, os.getloadavg(), flush=True)
for k, v in res.items(): print(k, v)
