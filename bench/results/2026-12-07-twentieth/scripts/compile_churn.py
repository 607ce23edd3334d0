"""Per watch batch, what HotSpot compiled (-XX:+PrintCompilation written to VMLOG by
-XX:+LogVMOutput): compilations by tier, compilations of a method already compiled at that
tier, methods made not entrant. Arguments: the VM log, the watch_compile_marks output."""
import collections
import json
import re
import sys

lines = open(sys.argv[1], errors="replace").read().split("\n")
marks = json.loads([line for line in open(sys.argv[2]) if line.startswith("MARKS")][0][6:])
pattern = re.compile(r"^\s*(\d+)\s+(\d+)\s+([%sbn!]*)\s+(\d)\s+(\S+)")
seen = collections.Counter()
for line in lines[: marks[0][0]]:
    match = pattern.match(line)
    if match and "made not entrant" not in line and "made zombie" not in line:
        seen[(match.group(5), match.group(4))] += 1
for number, (start, end) in enumerate(marks, start=1):
    compiled = not_entrant = again = 0
    tiers = collections.Counter()
    for line in lines[start:end]:
        match = pattern.match(line)
        if not match:
            continue
        if "made not entrant" in line:
            not_entrant += 1
            continue
        if "made zombie" in line:
            continue
        compiled += 1
        key = (match.group(5), match.group(4))
        tiers[match.group(4)] += 1
        again += bool(seen[key])
        seen[key] += 1
    print(f"batch {number}: compiled {compiled} by tier {dict(sorted(tiers.items()))} "
          f"again at the same tier {again} made not entrant {not_entrant}")
