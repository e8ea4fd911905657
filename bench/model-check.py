#!/usr/bin/env python3
"""The capacity model against emulated machines (bench/emulated.sh): predictions, then the check.

  model-check.py predict CALIBRATION.csv PLAN...
      the service demands D_i (CPU µs per write per tier, and the busiest instance's: for the
      RabbitMQ nodes the queue leader's) from the calibration runs (their mean), and per plan the
      predicted saturated throughput: each tier's ceiling n_i x q_i / D_i (instances x cores per
      instance over µs per write; for a tier of several instances, q_i over the busiest
      instance's demand, as the calibration split the work; an even split where the plan has another
      instance count), the lowest of them, and the tier that
      saturates first. Writes confirmed to the client are bounded by the client, the servers,
      HAProxy and the broker; writes applied by the consumers and PostgreSQL: in the closed model a
      consumer- or database-bound plan confirms faster than it applies and its backlog grows, so
      its throughput is the applied rate. Prints markdown; with --json FILE also the numbers.
  model-check.py check PREDICTIONS.json DATA.csv
      predicted against measured per plan: throughput error (measured over predicted - 1), the
      tier measured at its quota (the highest use of quota, busiest instance) against the tier
      named, each tier's use.
Standard library only.
"""
import csv
import json
import os
import statistics as st
import sys

TIERS = ("client", "server", "consumer", "rabbit", "haproxy", "postgres")
CONFIRM = ("client", "server", "haproxy", "rabbit")  # what bounds the writes confirmed
QUEUE_CEILING = 48_880  # writes/s: one quorum queue on 3 unconstrained nodes, results/queue-ceiling/


def plan_tiers(path):
    tiers = {}
    for line in open(path):
        words = line.split("#", 1)[0].split()
        if words and words[0] in TIERS:
            tiers[words[0]] = (int(words[1]), float(words[2]))
    return tiers


def demands(calibration):
    """Mean D_i, mean busiest instance's D_i, the rows, and the calibration's instance counts (from
    the plan copied beside its data.csv)."""
    rows = list(csv.DictReader(open(calibration)))
    cal_plan = plan_tiers(os.path.join(os.path.dirname(calibration), rows[0]["plan"] + ".plan"))
    return ({t: st.mean(float(r[f"{t}_d_us"]) for r in rows) for t in TIERS},
            {t: st.mean(float(r[f"{t}_dmax_us"]) for r in rows) for t in TIERS}, rows,
            {t: cal_plan[t][0] for t in TIERS})


def predict(calibration, plans, json_out=None):
    d, dmax, rows, n_cal = demands(calibration)
    print(f"Service demands (mean of {len(rows)} calibration run(s), µs of CPU per write; busiest instance"
          " in brackets):\n")
    print("| tier | " + " | ".join(TIERS) + " |\n|---" * 1 + "|---" * len(TIERS) + "|")
    print("| D_i | " + " | ".join(f"{d[t]:.1f} [{dmax[t]:.1f}]" for t in TIERS) + " |\n")
    out = {}
    print("| plan | " + " | ".join(f"{t} ceiling" for t in TIERS)
          + " | predicted writes/s | bottleneck | next tier (its ceiling / predicted) |")
    print("|---" * (len(TIERS) + 4) + "|")
    for p in plans:
        name = p.rsplit("/", 1)[-1].removesuffix(".plan")
        tiers = plan_tiers(p)
        # the calibration's split between instances where the count is the same; an even split else
        ceil = {t: tiers[t][1] / (dmax[t] * 1e-6) if tiers[t][0] == n_cal[t] else tiers[t][0] * tiers[t][1] / (d[t] * 1e-6)
                for t in TIERS}
        order = sorted(TIERS, key=ceil.get)
        x = min(ceil[order[0]], QUEUE_CEILING)
        out[name] = {"ceilings": ceil, "predicted": x, "bottleneck": order[0],
                     "confirmed": min(ceil[t] for t in CONFIRM), "plan": tiers}
        print(f"| {name} | " + " | ".join(f"{ceil[t]:,.0f}" for t in TIERS)
              + f" | **{x:,.0f}** | **{order[0]}** | {order[1]} ({ceil[order[1]] / x:.2f}x) |")
    print(f"\nThe queue's ceiling (one quorum queue, 3 nodes, unconstrained: {QUEUE_CEILING:,} writes/s) is above"
          " every plan; under these quotas the broker's CPU is its limit and that is the rabbit column.")
    if json_out:
        json.dump({"demands": d, "demands_busiest": dmax, "plans": out}, open(json_out, "w"), indent=2)


def check(pred_json, data_csv):
    pred = json.load(open(pred_json))["plans"]
    rows = {r["plan"]: r for r in csv.DictReader(open(data_csv))}
    print("| plan | predicted writes/s | measured writes/s (confirmed; applied) | error | bottleneck named |"
          " tier at its quota (use of quota) | named tier's use | " + " | ".join(f"{t} use" for t in TIERS)
          + " | bundle | load1 |")
    print("|---" * (9 + len(TIERS)) + "|")
    for name, p in pred.items():
        r = rows.get(name)
        if r is None:
            print(f"| {name} | {p['predicted']:,.0f} | not measured |" + " |" * (6 + len(TIERS)))
            continue
        confirmed, applied = float(r["writes_s"]), float(r["applied_s"])
        measured = min(confirmed, applied) if p["bottleneck"] in ("consumer", "postgres") else confirmed
        use = {t: float(r[f"{t}_max_use"]) for t in TIERS}
        top = max(TIERS, key=use.get)
        print(f"| {name} | {p['predicted']:,.0f} | {measured:,.0f} ({confirmed:,.0f}; {applied:,.0f}) |"
              f" {measured / p['predicted'] - 1:+.0%} | {p['bottleneck']} | {top} ({use[top]:.2f}) |"
              f" {use[p['bottleneck']]:.2f} | " + " | ".join(f"{use[t]:.2f}" for t in TIERS)
              + f" | {float(r['bundle']):.1f} | {r['load1_window']} |")


def main():
    args = sys.argv[1:]
    if args and args[0] == "predict":
        j = None
        if "--json" in args:
            i = args.index("--json")
            j = args[i + 1]
            del args[i:i + 2]
        predict(args[1], args[2:], j)
    elif args and args[0] == "check":
        check(args[1], args[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
