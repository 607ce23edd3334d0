"""A JDK 25 AOT cache trained on jvm_archive.py's synthetic workload (series 2 of
cold-batch-jvm.txt): its `_dump` run with -XX:AOTCacheOutput in place of -XX:ArchiveClassesAtExit.

    JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PYTHONPATH=/work/main python aot_synth.py OUT.aot
"""
import inspect
import sys
from pathlib import Path

from python_udfs.pipeline import jvm_archive

source = inspect.getsource(jvm_archive._dump).replace("-XX:ArchiveClassesAtExit={target}", "-XX:AOTCacheOutput={target}")
namespace = dict(vars(jvm_archive))
exec(source, namespace)  # noqa: S102 - a benchmark script re-running the module's own function
print(namespace["_dump"](Path(sys.argv[1])))
