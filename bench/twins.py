#!/usr/bin/env python3
"""How far apart two JVMs of the same build land, beside how far apart two builds do.

Usage: twins.py PART FIGURE NEW OLD DATA_CSV...

Reads data.csv files of bench/reads.sh invocations (one per invocation) whose variants include
twins: NEW and NEW2 run the same jars in JVMs of their own, as do OLD and OLD2. Every variant keeps
its JVMs for the whole invocation, so a JVM's luck (what its JIT compiled, where its heap landed)
is in every repeat of it, and paired repeats inside one invocation cannot average it out. Per
invocation and per repeat it takes the paired ratios of FIGURE (e.g. get_p99_ms) in PART (e.g.
a4), then prints per invocation the median of the repeats:

  same build  OLD2/OLD and NEW2/NEW: what the ratio of two builds reads when nothing differs;
  builds      NEW/OLD, NEW2/OLD2, NEW/OLD2 and NEW2/OLD: the comparison itself.

Over all invocations: the geometric mean of the per-invocation medians for each, with a 95%
interval from a bootstrap that resamples invocations and then repeats inside each (10,000 draws,
fixed seed), and the share of draws below 1. A builds' interval that lies inside the same-build
spread cannot tell the builds apart. python3, standard library only.
"""
import csv
import math
import random
import statistics
import sys

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)

DRAWS = 10_000


def load(paths, part, figure):
    """{invocation: {(variant, rep): value}} for the rows of PART with FIGURE."""
    out = {}
    for i, path in enumerate(paths):
        vals = {}
        with open(path) as f:
            for r in csv.DictReader(f):
                if r["part"] == part and r.get(figure):
                    vals[(r["variant"], r["rep"])] = float(r[figure])
        out[i] = vals
    return out


def ratios(vals, num, den):
    """Per repeat, num's value over den's, where both ran."""
    reps = sorted({rep for (_, rep) in vals}, key=int)
    return [vals[(num, r)] / vals[(den, r)] for r in reps if (num, r) in vals and (den, r) in vals]


def geo(xs):
    return math.exp(statistics.fmean(math.log(x) for x in xs))


def bootstrap(per_inv, rng):
    """Geometric mean over invocations of the per-invocation medians, resampled two levels deep."""
    draws = []
    invs = [rs for rs in per_inv if rs]
    for _ in range(DRAWS):
        meds = []
        for rs in rng.choices(invs, k=len(invs)):
            meds.append(statistics.median(rng.choices(rs, k=len(rs))))
        draws.append(geo(meds))
    draws.sort()
    return draws[int(0.025 * DRAWS)], draws[int(0.975 * DRAWS) - 1], sum(d < 1 for d in draws) / DRAWS


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    part, figure, new, old, paths = argv[0], argv[1], argv[2], argv[3], argv[4:]
    data = load(paths, part, figure)
    pairs = {
        "same build": [(old + "2", old), (new + "2", new)],
        "builds": [(new, old), (new + "2", old + "2"), (new, old + "2"), (new + "2", old)],
    }
    rng = random.Random(42)
    print(f"{part} {figure}: paired ratios, median of each invocation's repeats")
    print(f"| comparison | pair | {' | '.join(f'inv {i + 1}' for i in data)} |")
    print("|---|---|" + "---|" * len(data))
    for name, plist in pairs.items():
        for num, den in plist:
            cells = []
            for vals in data.values():
                rs = ratios(vals, num, den)
                cells.append(f"{statistics.median(rs):.3f}" if rs else "-")
            print(f"| {name} | {num}/{den} | {' | '.join(cells)} |")
    print()
    print("| comparison | geometric mean of the invocations' medians | 95% bootstrap | draws below 1 |")
    print("|---|---|---|---|")
    for name, plist in pairs.items():
        per_inv = []
        for vals in data.values():
            rs = []
            for num, den in plist:
                rs += ratios(vals, num, den)
            per_inv.append(rs)
        meds = [statistics.median(rs) for rs in per_inv if rs]
        lo, hi, below = bootstrap(per_inv, rng)
        print(f"| {name} | {geo(meds):.3f} | [{lo:.3f}, {hi:.3f}] | {below:.0%} |")


if __name__ == "__main__":
    main(sys.argv[1:])
