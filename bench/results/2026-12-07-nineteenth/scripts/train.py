"""Run a `cdc-pipeline` command in this process, then let its JVM exit and write what
CDC_JVM_OPTIONS asks for (series 1 and 4 of cold-batch-jvm.txt, run before 84bdbf7 made the CLI
do the same: python_udfs/pipeline/jvm_archive.py, stop_and_wait_for_the_jvm).

    CDC_JVM_OPTIONS="-XX:+UseParallelGC -XX:AOTCacheOutput=OUT.aot" python train.py watch ... --max-batches 1
"""
import sys

from python_udfs.pipeline import cli, jvm_archive

try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
jvm_archive.stop_and_wait_for_the_jvm()
print("jvm exited", flush=True)
