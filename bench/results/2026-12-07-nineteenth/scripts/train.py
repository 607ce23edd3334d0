import sys
from python_udfs.pipeline import cli
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
from pyspark import SparkContext
from pyspark.sql import SparkSession
gateway = SparkContext._gateway
process = getattr(gateway, "proc", None)
active = SparkSession.getActiveSession()
if active is not None:
    active.stop()
if gateway is not None:
    gateway.shutdown()
if process is not None:
    process.stdin.close()
    process.wait(timeout=900)
print("jvm exited", flush=True)
