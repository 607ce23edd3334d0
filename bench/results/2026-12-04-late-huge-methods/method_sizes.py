"""The largest methods Spark generated for each compiled select, run in turn in one JVM (noop
sink): Spark's own histogram of generated method sizes (CodegenMetrics, a sample of recent
values). A method over 8,000 bytes of bytecode is never JIT-compiled by HotSpot.

    .venv/bin/python bench/results/2026-12-04-late-huge-methods/method_sizes.py LOCAL_DIR A.sql [B.sql ...]
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cpu_variants_session import session  # noqa: E402

spark = session(sys.argv[1])
sizes = spark._jvm.org.apache.spark.metrics.source.CodegenMetrics.METRIC_GENERATED_METHOD_BYTECODE_SIZE()
for path in sys.argv[2:]:
    spark.sql(open(path, encoding="utf-8").read()).write.format("noop").mode("overwrite").save()
    values = list(sizes.getSnapshot().getValues())
    print(f"{Path(path).name}: methods so far {sizes.getCount()}, largest {values[-5:]},"
          f" over 8,000 bytes {sum(v > 8000 for v in values)} (cumulative)", flush=True)
