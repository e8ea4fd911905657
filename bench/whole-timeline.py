#!/usr/bin/env python3
"""Where a whole run's seconds go: the per-second timeline of bench/client-cost.sh's whole mode.

    bench/whole-timeline.py TIMELINE.csv SECONDS [PHASES=0,2,5,10,15,30]

TIMELINE.csv has one row per second of each run: run (TOOL-rREP), t (seconds since the tool's
launch), served (requests the server answered since the launch), cpu_s and jit_s (the process's CPU
seconds and its JIT compiler threads' so far; '-' for a tool that is not a JVM). For each tool, the
median over its runs, per phase of the run (from the launch): the requests answered per second, the
seconds of load the phase lost against the tool's own steady rate (the median rate of the run's
second half), and the process's CPU and JIT seconds in the phase. The last row of each tool is the
whole run: its rate over SECONDS and what it lost in all.
"""
import csv
import statistics
import sys
from collections import defaultdict

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)


def at(points, t):
    """The column values at time t, linearly between the samples (0 before the first)."""
    prev = (0.0, 0.0, 0.0, 0.0)
    for p in points:
        if p[0] >= t:
            if p[0] == prev[0]:
                return p
            f = (t - prev[0]) / (p[0] - prev[0])
            return tuple(a + f * (b - a) for a, b in zip(prev, p))
        prev = p
    return prev


def phases_of(points, secs, cuts):
    """Per phase: (rate, seconds lost against the steady rate, cpu s, jit s)."""
    rates = [(b[1] - a[1]) / (b[0] - a[0]) for a, b in zip(points, points[1:])
             if secs / 2 <= a[0] and b[0] <= secs - 1 and b[0] > a[0]]
    steady = statistics.median(rates) if rates else float("nan")
    out = []
    for lo, hi in zip(cuts, cuts[1:] + [secs]):
        a, b = at(points, lo), at(points, hi)
        served = b[1] - a[1]
        out.append((served / (hi - lo), (hi - lo) - served / steady, b[2] - a[2], b[3] - a[3]))
    total = points[-1][1]
    known = [p for p in points if p[2] == p[2]] or [(0, 0, float("nan"), float("nan"))]
    out.append((total / secs, secs - total / steady, known[-1][2], known[-1][3]))
    return steady, out


def main():
    path, secs = sys.argv[1], float(sys.argv[2])
    cuts = [float(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "0,2,5,10,15,30").split(",")]
    cuts = [c for c in cuts if c < secs]
    runs = defaultdict(list)
    for r in csv.DictReader(open(path)):
        num = lambda v: float(v) if v not in ("", "-") else float("nan")
        runs[r["run"]].append((float(r["t"]), float(r["served"]), num(r["cpu_s"]), num(r["jit_s"])))
    by_tool = defaultdict(list)
    for run, points in runs.items():
        by_tool[run.rsplit("-r", 1)[0]].append(phases_of(sorted(points), secs, cuts))
    labels = [f"{lo:g}-{hi:g} s" for lo, hi in zip(cuts, cuts[1:] + [secs])] + ["whole run"]
    print(f"median over each tool's runs; lost = seconds of the tool's own steady rate (second half)"
          f" the phase missed\n")
    print("| tool | steady req/s | phase | req/s | s lost | CPU s | JIT s |")
    print("|---|---|---|---|---|---|---|")
    for tool in sorted(by_tool):
        results = by_tool[tool]
        steady = statistics.median(s for s, _ in results)
        for i, label in enumerate(labels):
            col = lambda k: statistics.median(r[1][i][k] for r in results)
            cpu, jit = col(2), col(3)
            fmt = lambda v, f: "-" if v != v else format(v, f)
            print(f"| {tool} | {steady:,.0f} | {label} | {col(0):,.0f} | {col(1):.2f} |"
                  f" {fmt(cpu, '.2f')} | {fmt(jit, '.2f')} |")


if __name__ == "__main__":
    main()
