"""Exclusive and inclusive time per dbt macro over one in-process dbt invocation."""
import json, os, sys, time, collections
sys.path.insert(0, '/work/main')
import dbt.clients.jinja as J
stack = []; excl = collections.Counter(); incl = collections.Counter(); calls = collections.Counter()
orig = J.MacroGenerator.__call__
def timed(self, *a, **k):
    name = getattr(self.macro, 'name', '?')
    t0 = time.perf_counter(); stack.append([name, 0.0])
    try:
        return orig(self, *a, **k)
    finally:
        dt = time.perf_counter() - t0
        _, child = stack.pop()
        excl[name] += dt - child; incl[name] += dt; calls[name] += 1
        if stack: stack[-1][1] += dt
J.MacroGenerator.__call__ = timed
from dbt.cli.main import dbtRunner
args = sys.argv[1:]
t = time.perf_counter(); res = dbtRunner().invoke(args); total = time.perf_counter() - t
print('ok', res.success, 'total', round(total, 1))
print('--- exclusive')
for n, v in excl.most_common(35): print(f'{v:7.2f} incl {incl[n]:7.2f} calls {calls[n]:6d}  {n}')
