"""Wrap every sha2(...) of a compiled select in substr(..., 1, 32): the ids (message_id,
event_id, change_id, keyless row keys) as 128 bits of hex instead of 256, for ab_write.py.

    python short_ids.py A.sql B.sql
"""
import sys

text = open(sys.argv[1], encoding="utf-8").read()
out, i = [], 0
while (j := text.find("sha2(", i)) >= 0:
    depth, k = 0, j + 4
    while True:  # the matching parenthesis, skipping string literals
        c = text[k]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                break
        elif c == "'":
            k = text.index("'", k + 1)
        k += 1
    out += [text[i:j], "substr(", text[j:k + 1], ", 1, 32)"]
    i = k + 1
out.append(text[i:])
open(sys.argv[2], "w", encoding="utf-8").write("".join(out))
