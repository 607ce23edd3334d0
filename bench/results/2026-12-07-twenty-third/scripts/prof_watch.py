"""Profile the Python side of warm watch batch builds: every dbt invocation after the
PROFILE_FROM-th is run under cProfile in the main thread and in each dbt worker thread;
stats are dumped to /tmp/r23/prof-<n>.pstats. Run like the CLI: prof_watch.py watch ..."""
import cProfile, os, sys, threading, pstats
from python_udfs.pipeline import cli
import dbt.task.runnable as runnable

PROFILE_FROM = int(os.environ.get("PROFILE_FROM", "3"))
state = {"n": 0, "profs": [], "on": False}
lock = threading.Lock()
orig_init = runnable.GraphRunnableTask._pool_thread_initializer

def init(invocation_context):
    orig_init(invocation_context)
    if state["on"]:
        p = cProfile.Profile()
        with lock:
            state["profs"].append(p)
        p.enable()
runnable.GraphRunnableTask._pool_thread_initializer = staticmethod(init)

orig_run_dbt = cli.run_dbt
def run_dbt(project_dir, args):
    if args and args[0] == "build" and "--resource-type" not in args:
        state["n"] += 1
    if state["n"] >= PROFILE_FROM and args and args[0] == "build" and "--resource-type" not in args:
        state["on"] = True; state["profs"] = []
        main = cProfile.Profile(); main.enable()
        try:
            return orig_run_dbt(project_dir, args)
        finally:
            main.disable(); state["on"] = False
            for p in state["profs"]:
                p.disable()
            st = pstats.Stats(main)
            for p in state["profs"]:
                st.add(p)
            st.dump_stats(f"/tmp/r23/prof-{state['n']}.pstats")
    return orig_run_dbt(project_dir, args)
cli.run_dbt = run_dbt
sys.exit(cli.main(sys.argv[1:]))
