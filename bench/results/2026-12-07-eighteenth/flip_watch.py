"""Run `cdc-pipeline watch` with CDC_THREADS alternating per build between the values in FLIP (e.g. 2,3)."""
import os, sys, itertools
sys.path.insert(0, "/work/main")
import python_udfs.pipeline.cli as cli
vals = itertools.cycle(os.environ["FLIP"].split(","))
orig = cli.run_dbt
def run_dbt(project_dir, args):
    if args and args[0] == "build":
        v = next(vals); os.environ["CDC_THREADS"] = v
        print(f"threads={v}", flush=True)
    return orig(project_dir, args)
cli.run_dbt = run_dbt
sys.argv = ["cdc-pipeline"] + sys.argv[1:]
sys.exit(cli.main())
