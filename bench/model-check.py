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
  model-check.py check PREDICTIONS.json DATA.csv [CALIBRATION.csv]
      predicted against measured per plan: throughput error (measured over predicted - 1), the
      tier measured at its quota (the highest use of quota, busiest instance) against the tier
      named, each tier's use; with the calibration, each tier's µs per write in every run beside
      the calibrated D_i (consumers and PostgreSQL over the writes applied).
  model-check.py usl DATA.csv
      the Universal Scalability Law fitted to runs of 1, 2, 3 instances (plans named NAME-N).
Standard library only.
"""
import csv
import json
import math
import os
import statistics as st
import sys

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)

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


def demands_table(pred_json, data_csv, calibration):
    """Each tier's measured µs per write in every plan beside the calibrated D_i: where the linear
    model misses, the demand that moved. The consumers' and PostgreSQL's over the writes applied,
    the others' over the writes confirmed."""
    d = json.load(open(pred_json))["demands"]
    rows = list(csv.DictReader(open(calibration))) + list(csv.DictReader(open(data_csv)))
    print("\n| run | writes/s confirmed | applied | bundle | " + " | ".join(f"{t} µs/write" for t in TIERS) + " |")
    print("|---" * (4 + len(TIERS)) + "|")
    print("| calibrated D_i | | | | " + " | ".join(f"{d[t]:.1f}" for t in TIERS) + " |")
    for r in rows:
        conf, appl = float(r["writes_s"]), float(r["applied_s"])
        us = {t: float(r[f"{t}_cores"]) / (appl if t in ("consumer", "postgres") else conf) * 1e6 for t in TIERS}
        print(f"| {r['plan']} | {conf:,.0f} | {appl:,.0f} | {float(r['bundle']):.1f} | "
              + " | ".join(f"{us[t]:.1f} ({us[t] / d[t]:.2f}x)" for t in TIERS) + " |")


def fit(pred_json, calibration, *datas):
    """What the linear model leaves out, fitted on all the runs (calibration and plans, so a
    description of these runs, not a forecast): per tier, the busiest instance's cores as
    c0 + d * X (least squares; X the writes confirmed, applied for the consumers and PostgreSQL):
    c0 is the instance's cost of running at all (idle threads, timers, heartbeats, GC), d the
    marginal µs per write. Each plan's bottleneck then saturates at (q - c0) / d."""
    pred = json.load(open(pred_json))["plans"]
    rows = list(csv.DictReader(open(calibration)))
    for path in datas:
        rows += list(csv.DictReader(open(path)))
    coef = {}
    print("| tier | busiest instance's cores = c0 + d·X: c0 (cores) | d (µs per write) | runs |")
    print("|---|---|---|---|")
    for t in TIERS:
        pts = []
        for r in rows:
            x = float(r["applied_s"] if t in ("consumer", "postgres") else r["writes_s"])
            pts.append((x, float(r[f"{t}_dmax_us"]) * float(r["writes_s"]) * 1e-6))  # busiest instance's cores
        mx, my = st.mean(p[0] for p in pts), st.mean(p[1] for p in pts)
        sxx = sum((p[0] - mx) ** 2 for p in pts)
        d = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx else 0.0
        c0 = my - d * mx
        coef[t] = (c0, d)
        print(f"| {t} | {c0:.3f} | {d * 1e6:.1f} | {len(pts)} |")
    print("\n| plan | predicted (linear) | with c0: (q - c0) / d of the named tier | measured |")
    print("|---|---|---|---|")
    meas = {r["plan"]: r for r in rows}
    for name, p in pred.items():
        t = p["bottleneck"]
        q = p["plan"][t][1]
        c0, d = coef[t]
        r = meas.get(name)
        m = "" if r is None else f"{min(float(r['writes_s']), float(r['applied_s'])) if t in ('consumer', 'postgres') else float(r['writes_s']):,.0f}"
        print(f"| {name} | {p['predicted']:,.0f} | {(q - c0) / d:,.0f} | {m} |")


def usl(data_csv):
    """Gunther's Universal Scalability Law on runs named servers-1, servers-2, servers-3 (or any
    '<tier>-N'): X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)), lambda = X(1); sigma
    (contention) and kappa (coherency) by least squares on N / C(N) - 1 = sigma (N - 1) +
    kappa N (N - 1), C(N) = X(N) / X(1) (exact with three points)."""
    rows = {int(r["plan"].rsplit("-", 1)[1]): r for r in csv.DictReader(open(data_csv))}
    x = {n: float(r["writes_s"]) for n, r in rows.items()}
    lam = x[1]
    pts = [(n - 1, n * (n - 1), n / (x[n] / lam) - 1) for n in sorted(x) if n > 1]
    a11 = sum(p[0] * p[0] for p in pts); a12 = sum(p[0] * p[1] for p in pts); a22 = sum(p[1] * p[1] for p in pts)
    b1 = sum(p[0] * p[2] for p in pts); b2 = sum(p[1] * p[2] for p in pts)
    det = a11 * a22 - a12 * a12
    sigma, kappa = ((b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det) if det else (b1 / a11, 0.0)
    if kappa < 0:  # no coherency term can be negative: the data are sublinear without a peak (Amdahl)
        print(f"unconstrained fit: sigma = {sigma:.3f}, kappa = {kappa:.4f} < 0, not physical; refitted with kappa = 0")
        sigma, kappa = b1 / a11, 0.0
    print(f"USL: lambda = {lam:,.0f} writes/s, sigma = {sigma:.3f}, kappa = {kappa:.4f}"
          + (f"; peak at N* = sqrt((1 - sigma) / kappa) = {math.sqrt((1 - sigma) / kappa):.1f}" if kappa > 0 and sigma < 1 else "")
          + "\n")
    print("| N | measured writes/s | linear N·X(1) | USL | busiest server's use of its quota | servers' µs per write | bundle |")
    print("|---|---|---|---|---|---|---|")
    for n in sorted(x):
        r = rows[n]
        fit_x = lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))
        print(f"| {n} | {x[n]:,.0f} | {lam * n:,.0f} | {fit_x:,.0f} | {float(r['server_max_use']):.2f} |"
              f" {float(r['server_d_us']):.1f} | {float(r['bundle']):.1f} |")


def main():
    args = sys.argv[1:]
    if args and args[0] == "predict":
        j = None
        if "--json" in args:
            i = args.index("--json")
            j = args[i + 1]
            del args[i:i + 2]
        predict(args[1], args[2:], j)
    elif args and args[0] == "usl":
        usl(args[1])
    elif args and args[0] == "fit":
        fit(args[1], args[2], *args[3:])
    elif args and args[0] == "check":
        check(args[1], args[2])
        if len(args) > 3:
            demands_table(args[1], args[2], args[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
