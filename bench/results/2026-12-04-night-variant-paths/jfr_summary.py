"""Where the CPU samples of a JFR recording are (`jfr print --events jdk.ExecutionSample
--stack-depth 64 REC.jfr > REC.txt`): the share of samples under a few groups of Spark code,
the top methods by self time, and the callers of the top one.

    python3 bench/results/2026-12-04-night-variant-paths/jfr_summary.py REC.txt
"""
import collections
import re
import sys

GROUPS = [
    ("variant path walk (VariantGet.variantGet)", "VariantGet$.variantGet"),
    ("variant cast (VariantGet.cast)", "VariantGet$.cast"),
    ("variant parse (VariantBuilder)", "VariantBuilder"),
    ("Jackson (json_object_keys, from_json)", "com.fasterxml.jackson"),
    ("interpreted lambdas (HigherOrderFunction)", "HigherOrderFunction"),
    ("transform_values", "TransformValues"),
    ("map_filter", "MapFilter"),
    ("map builders (map_concat, ...)", "ArrayBasedMapBuilder"),
    ("sha2", "MessageDigest"),
    ("regular expressions", "java.util.regex"),
    ("UTF8String", "UTF8String"),
]
FRAME = re.compile(r"^\s+([\w$.<>]+)\(.*?line: (\d+)", re.M)

stacks = []
for event in open(sys.argv[1], encoding="utf-8").read().split("jdk.ExecutionSample")[1:]:
    frames = FRAME.findall(event.split("stackTrace = [", 1)[-1])
    if frames:
        stacks.append(frames)
n = len(stacks)
print(f"{n} samples")
for name, pattern in GROUPS:
    share = sum(any(pattern in f for f, _ in s) for s in stacks) / n
    print(f"{100 * share:5.1f}%  {name}")
own = collections.Counter(s[0][0] for s in stacks)
print("self time:")
for method, count in own.most_common(12):
    print(f"{100 * count / n:5.1f}%  {method}")
top = own.most_common(1)[0][0]
callers = collections.Counter(" <- ".join(f"{f.rsplit('.', 1)[-1]}:{line}" for f, line in s[1:4])
                              for s in stacks if s[0][0] == top)
print(f"callers of {top}:")
for chain, count in callers.most_common(3):
    print(f"{count:6d}  {chain}")
