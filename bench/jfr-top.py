#!/usr/bin/env python3
"""Top frames (self and inclusive by package-level method) of jdk.ExecutionSample in a JFR file."""
import collections, json, subprocess, sys

jfr = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 25
out = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ExecutionSample", jfr],
                     capture_output=True, text=True, check=True).stdout
events = json.loads(out)["recording"]["events"]
self_c, incl = collections.Counter(), collections.Counter()
for e in events:
    frames = e["values"]["stackTrace"]["frames"] if e["values"].get("stackTrace") else []
    names = [f["method"]["type"]["name"] + "." + f["method"]["name"] for f in frames]
    if names:
        self_c[names[0]] += 1
    for nm in set(names):
        incl[nm] += 1
total = max(1, len(events))
print(f"samples: {total}")
print("--- self ---")
for k, v in self_c.most_common(n):
    print(f"{100*v/total:5.1f}% {k}")
print("--- inclusive ---")
for k, v in incl.most_common(n * 2):
    print(f"{100*v/total:5.1f}% {k}")
