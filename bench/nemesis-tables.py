#!/usr/bin/env python3
"""Tables over faults/nemesis.sh runs (python3, standard library).

  nemesis-tables.py cost DIR        per fault kind over DIR/seed-*/fault-cost.md: faults, the
                                    longest time without a 200, write p99 during (lowest and
                                    highest seed), the largest backlog at a heal, the longest drain
  nemesis-tables.py failovers RUN   where each DB_FAILOVER of RUN/nemesis.txt fell: inside which
                                    disk or memory alarm, slow-database spell or node pause, or
                                    "flowing" (none of them)
"""
import glob
import re
import sys

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)

ROW = re.compile(r'\| ([A-Z_]+) \| (\d+) \| ([\d.]+) \| (\d+) \| (\d+) \| ([\d.]+) \|')
WINDOW = re.compile(r'^\s+([\d.]+) s -\s+([\d.]+) s  (\w+)', re.M)
SLOWING = {'SLOW_DATABASE': 'slow db', 'DISK_ALARM': 'disk alarm',
           'MEMORY_ALARM': 'memory alarm', 'NODE_PAUSE': 'node paused'}


def cost(folder):
    rows, outside = {}, []
    for f in sorted(glob.glob(folder + '/seed-*/fault-cost.md')):
        text = open(f).read()
        outside.append(int(re.search(r'outside every fault (\d+) ms', text).group(1)))
        for m in ROW.finditer(text):
            rows.setdefault(m.group(1), []).append(
                (int(m.group(2)), float(m.group(3)), int(m.group(4)), int(m.group(5)), float(m.group(6))))
    print(f"write p99 outside every fault: {min(outside)} to {max(outside)} ms, {len(outside)} runs")
    print()
    print("| fault | n | longest without a 200 (s) | write p99 during (ms), lowest–highest seed "
          "| largest backlog at heal (messages) | longest drain after heal (s) |")
    print("|---|---|---|---|---|---|")
    for kind, r in rows.items():
        print(f"| {kind} | {sum(x[0] for x in r)} | {max(x[1] for x in r):.1f} "
              f"| {min(x[2] for x in r):,}–{max(x[2] for x in r):,} | {max(x[3] for x in r)} "
              f"| {max(x[4] for x in r):.1f} |")


def failovers(run):
    wins = sorted({(float(a), float(b), k) for a, b, k in WINDOW.findall(open(run + '/nemesis.txt').read())})
    for a, _, kind in wins:
        if kind == 'DB_FAILOVER':
            held = sorted({SLOWING[k] for a2, b2, k in wins if k in SLOWING and a2 <= a <= b2})
            print(f"{a:.1f} s ({', '.join(held) or 'flowing'})")


if __name__ == '__main__':
    if len(sys.argv) != 3 or sys.argv[1] not in ('cost', 'failovers'):
        sys.exit(__doc__)
    {'cost': cost, 'failovers': failovers}[sys.argv[1]](sys.argv[2])
