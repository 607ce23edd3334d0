"""cProfile of dbt compile_node (one dbt thread) for the named models, warm (fourth compile in
one process); prints each node's compile seconds and the hottest functions."""
import cProfile, pstats, sys, os, time
from pathlib import Path
sys.path.insert(0, "/work/main")
os.chdir("/work/main")
os.environ["CDC_THREADS"] = "1"
from python_udfs.pipeline import cli
import dbt.compilation as C
V = open("/tmp/r22/vars.json").read()
sel = sys.argv[1:]
args = ["compile", "--quiet", "--no-write-json", "--vars", V, "-s", *sel]
prof = {"p": None}
times = {}
orig = C.Compiler.compile_node
def wrapped(self, node, *a, **k):
    t = time.perf_counter()
    if prof["p"]: prof["p"].enable()
    try: return orig(self, node, *a, **k)
    finally:
        if prof["p"]: prof["p"].disable()
        times.setdefault(node.name, []).append(time.perf_counter() - t)
C.Compiler.compile_node = wrapped
for i in range(3):
    cli.run_dbt(Path("/work/main"), args)
prof["p"] = cProfile.Profile()
times.clear()
cli.run_dbt(Path("/work/main"), args)
for k, v in sorted(times.items(), key=lambda x: -sum(x[1])): print(f"{k:40} {sum(v):.3f}")
st = pstats.Stats(prof["p"]); st.sort_stats("cumulative").print_stats(70)
st.sort_stats("tottime").print_stats(30)
