"""Which operators of a compiled select cannot join whole-stage code generation, and why: the
CodegenFallback expressions of each Project, Generate and Filter of its physical plan
(adaptive execution off, so the whole plan shows). One such expression keeps its whole
operator out of the generated stage.

    .venv/bin/python bench/results/2026-12-04-late-huge-methods/codegen_fallbacks.py LOCAL_DIR A.sql
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cpu_variants_session import session  # noqa: E402

spark = session(sys.argv[1])
spark.conf.set("spark.sql.adaptive.enabled", "false")
plan = spark.sql(open(sys.argv[2], encoding="utf-8").read())._jdf.queryExecution().executedPlan()
fallback = spark._jvm.java.lang.Class.forName("org.apache.spark.sql.catalyst.expressions.codegen.CodegenFallback")


def fallbacks(expression, found: set) -> None:
    if fallback.isInstance(expression):
        found.add(expression.prettyName())
    children = expression.children()
    for i in range(children.size()):
        fallbacks(children.apply(i), found)


def walk(node, depth: int = 0) -> None:
    if node.nodeName() in ("Project", "Generate", "Filter"):
        found: set = set()
        expressions = node.expressions()
        for i in range(expressions.size()):
            fallbacks(expressions.apply(i), found)
        print("  " * depth + node.nodeName(), node.output().size(), "columns; interpreted expressions:", sorted(found))
    children = node.children()
    for i in range(children.size()):
        walk(children.apply(i), depth + 1)


walk(plan)
