#!/usr/bin/env python3
"""Summarises async-profiler collapsed stacks: top frames by self and by inclusive samples.

   bench/collapsed-top.py FILE.collapsed [N=30] [FILTER]
FILTER (optional): only inclusive frames containing this text (e.g. albumstore)."""
import collections, sys

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)

path = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 30
flt = sys.argv[3] if len(sys.argv) > 3 else None
self_c, incl, total = collections.Counter(), collections.Counter(), 0
for line in open(path):
    stack, _, count = line.rstrip("\n").rpartition(" ")
    if not stack:
        continue
    c = int(count)
    total += c
    frames = stack.split(";")
    self_c[frames[-1]] += c
    for f in set(frames):
        incl[f] += c
total = max(total, 1)
print(f"samples: {total}")
print("--- self ---")
for k, v in self_c.most_common(n):
    print(f"{100 * v / total:5.1f}% {k}")
print("--- inclusive" + (f" (frames containing {flt!r})" if flt else "") + " ---")
shown = 0
for k, v in incl.most_common():
    if flt and flt not in k:
        continue
    print(f"{100 * v / total:5.1f}% {k}")
    shown += 1
    if shown >= 2 * n:
        break
