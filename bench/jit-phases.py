#!/usr/bin/env python3
"""Where a JVM's JIT time went, by phase of its run and by whose code: the jdk.Compilation events of
a JFR recording (bench/client-jit.sh makes one with bench/jfr/compilations.jfc).

    bench/jit-phases.py RECORDING.jfr [CUTS=0,2,5,10,15,30,60]

Per phase (seconds since the JVM started) and per owner of the compiled method (Netty, this
project, the JDK, HdrHistogram, Jackson, picocli, Micrometer, other): the compiler threads' seconds
spent compiling (the events' durations), split into C1 (tiers 1-3) and C2 (tier 4), and the number
of compilations.
"""
import collections
import datetime
import json
import subprocess
import sys

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)

OWNERS = [("io.netty", "netty"), ("org.albumstore", "albumstore"), ("java.", "jdk"),
          ("jdk.", "jdk"), ("sun.", "jdk"), ("org.HdrHistogram", "hdrhistogram"),
          ("com.fasterxml", "jackson"), ("picocli", "picocli"), ("io.micrometer", "micrometer"),
          ("io.prometheus", "micrometer"), ("ch.qos", "logging"), ("org.slf4j", "logging")]


def owner(type_name):
    name = type_name.replace("/", ".")
    return next((o for prefix, o in OWNERS if name.startswith(prefix)), "other")


def when(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def seconds(duration):
    """A JFR duration as printed in JSON ('PT0.001234S' or a number of nanoseconds)."""
    if isinstance(duration, (int, float)):
        return duration / 1e9
    d = duration.strip("PT").rstrip("S")
    total = 0.0
    if "M" in d:
        minutes, d = d.split("M")
        total += 60 * float(minutes)
    return total + (float(d) if d else 0.0)


def main():
    jfr = sys.argv[1]
    cuts = [float(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "0,2,5,10,15,30,60").split(",")]
    out = subprocess.run(["jfr", "print", "--json", "--events", "jdk.Compilation,jdk.Deoptimization,jdk.JVMInformation", jfr],
                         capture_output=True, text=True, check=True).stdout
    events = json.loads(out)["recording"]["events"]
    start = next(when(e["values"]["jvmStartTime"]) for e in events if e["type"] == "jdk.JVMInformation")
    spent = collections.defaultdict(lambda: [0.0, 0.0, 0])  # (phase, owner) -> C1 s, C2 s, count
    deopts = collections.Counter()  # (phase, reason) -> count
    for e in events:
        if e["type"] not in ("jdk.Compilation", "jdk.Deoptimization"):
            continue
        v = e["values"]
        t = (when(v["startTime"]) - start).total_seconds()
        phase = next((f"{lo:g}-{hi:g} s" for lo, hi in zip(cuts, cuts[1:]) if lo <= t < hi), f"{cuts[-1]:g} s on")
        if e["type"] == "jdk.Deoptimization":
            deopts[(phase, v.get("reason", "?"))] += 1
            continue
        cell = spent[(phase, owner(v["method"]["type"]["name"]))]
        cell[0 if v["compileLevel"] < 4 else 1] += seconds(v["duration"])
        cell[2] += 1
    phases = [f"{lo:g}-{hi:g} s" for lo, hi in zip(cuts, cuts[1:])] + [f"{cuts[-1]:g} s on"]
    owners = sorted({o for _, o in spent}, key=lambda o: -sum(spent[(p, o)][0] + spent[(p, o)][1] for p in phases))
    print("JIT seconds (C1 + C2) by phase since the JVM's start and by whose code; compilations in brackets\n")
    print("| phase | all | " + " | ".join(owners) + " |")
    print("|---" * (len(owners) + 2) + "|")
    for p in phases:
        cells = [spent[(p, o)] for o in owners]
        c1, c2, n = (sum(c[i] for c in cells) for i in range(3))
        if n == 0:
            continue
        row = [f"{c[0] + c[1]:.2f} ({c[2]})" if c[2] else "-" for c in cells]
        print(f"| {p} | {c1 + c2:.2f} s: C1 {c1:.2f}, C2 {c2:.2f} ({n}) | " + " | ".join(row) + " |")
    print("\nDeoptimizations by phase (the most frequent reasons)\n")
    for p in phases:
        reasons = collections.Counter({r: n for (ph, r), n in deopts.items() if ph == p})
        if reasons:
            top = ", ".join(f"{r} {n}" for r, n in reasons.most_common(4))
            print(f"- {p}: {sum(reasons.values())} ({top})")


if __name__ == "__main__":
    main()
