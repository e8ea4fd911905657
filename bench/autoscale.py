#!/usr/bin/env python3
"""The figures and chart of one bench/autoscale.sh run (standard library only).

autoscale.py RUN_DIR OUT EXIT_CODE MACHINE_JSON COMMAND STEPS STEP_SECONDS PERIOD SERVER_TARGET
             TARGET_LATENCY MESSAGE_MILLIS

Reads RUN_DIR/autoscale.csv (one row per evaluation period, the scaler's) and RUN_DIR/timeline.csv
(one row per second, the client's), joins them by wall-clock time, and writes OUT/data.csv,
OUT/summary.json and OUT/chart.svg (instances, rate, backlog and p99 over time, hand-written SVG).
"""
import csv
import json
import math
import re
import sys
from pathlib import Path

if len(sys.argv) < 12 or sys.argv[1] in ("--help", "-h"):
    print(__doc__.strip())
    sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("--help", "-h") else 2)
run, out = Path(sys.argv[1]), Path(sys.argv[2])
code, machine, command = int(sys.argv[3]), json.load(open(sys.argv[4])), sys.argv[5]
steps = [float(s) for s in sys.argv[6].split(",")]
step_s, period = float(sys.argv[7]), float(sys.argv[8])
server_target, latency, millis = float(sys.argv[9]), float(sys.argv[10]), float(sys.argv[11])
consumer_target = latency * 1000 / millis

scaler = list(csv.DictReader(open(run / "autoscale.csv")))
client = list(csv.DictReader(open(run / "timeline.csv")))
t0 = int(client[0]["time"]) - 1000 * float(client[0]["elapsed_s"])  # the load's start, epoch ms


def client_at(epoch_ms):
    """The client's second that ended nearest after epoch_ms."""
    for c in client:
        if int(c["time"]) >= epoch_ms:
            return c
    return client[-1]


rows = []
for r in scaler:
    t = (int(r["epoch_ms"]) - t0) / 1000
    c = client_at(int(r["epoch_ms"]))
    rows.append({"t_s": round(t, 1), "servers": int(r["servers"]), "consumers": int(r["consumers"]),
                 "servers_up": int(r["servers_up"]), "backlog": float(r["backlog"]),
                 "backlog_per_consumer": float(r["backlog_per_consumer"]),
                 "requests_per_server_per_s": float(r["requests_per_server_per_s"]),
                 "client_ok_per_s": int(c["writes_ok"]), "client_p99_ms": float(c["writes_p99_ms"]),
                 "decision": r["decision"]})
with open(out / "data.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)

high_start, high_end = step_s, 2 * step_s  # the second step is the high one


def first(pred, after):
    return next((r for r in rows if r["t_s"] >= after and pred(r)), None)


def changes(key):
    return sum(1 for a, b in zip(rows, rows[1:]) if a[key] != b[key])


def delay(key, grow, after):
    base = rows[0][key]
    r = first(lambda r: (r[key] > base) if grow else (r[key] < max(x[key] for x in rows)), after)
    return None if r is None else round(r["t_s"] - after, 1)


peak = max(rows, key=lambda r: r["backlog"])
under = first(lambda r: r["backlog"] <= consumer_target * r["consumers"], peak["t_s"])
empty = first(lambda r: r["backlog"] <= max(1, peak["backlog"] * 0.01), peak["t_s"])
stdout = (out / "run.txt").read_text(errors="replace")
step_rows = re.findall(r"^(\d+)\s+(\d+)-(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$",
                       stdout, re.M)
summary = {
    "command": command, "machine": machine | {"loadavg_at_end": open("/proc/loadavg").read().split()[:3]},
    "exit_code": code, "steps_req_per_s": steps, "step_seconds": step_s,
    "evaluation_period_s": period, "compression": 60 / period,
    "server_target_req_per_s": server_target, "consumer_target_backlog": consumer_target,
    "scale_out_delay_s": {"servers": delay("servers", True, high_start),
                          "consumers": delay("consumers", True, high_start)},
    "scale_in_delay_s": {"servers": delay("servers", False, high_end),
                         "consumers": delay("consumers", False, high_end)},
    "changes": {"servers": changes("servers"), "consumers": changes("consumers")},
    "most": {"servers": max(r["servers"] for r in rows), "consumers": max(r["consumers"] for r in rows)},
    "backlog_peak": {"t_s": peak["t_s"], "messages": peak["backlog"]},
    "backlog_back_under_target_s": None if under is None else round(under["t_s"] - peak["t_s"], 1),
    "backlog_drained_s": None if empty is None else round(empty["t_s"] - peak["t_s"], 1),
    "target_latency_s": latency,
    "steps": [{"step": int(s[0]), "target": int(s[3]), "ok": int(s[4]), "failed": int(s[5]),
               "p50_ms": float(s[6]), "p99_ms": float(s[7]), "req_per_s": float(s[9])} for s in step_rows],
    "verified": re.findall(r"^verified: .*$", stdout, re.M),
    "history": re.findall(r"^history: .*$|^  no (?:lost write|duplicate|phantom) .*$", stdout, re.M),
    "decisions": [{"t_s": r["t_s"], "decision": r["decision"]} for r in rows if r["decision"]],
}
json.dump(summary, open(out / "summary.json", "w"), indent=2)
print(json.dumps({k: summary[k] for k in ("exit_code", "scale_out_delay_s", "scale_in_delay_s", "changes",
                                          "most", "backlog_peak", "backlog_back_under_target_s",
                                          "backlog_drained_s", "steps", "verified", "history")}, indent=1))

# The chart: four panels over the load's seconds.
W, PH, L, R, TOP, GAP = 900, 150, 70, 20, 30, 40
panels = [
    ("instances", [("servers", "#1f77b4"), ("consumers", "#d62728")], None),
    ("client writes ok/s", [("client_ok_per_s", "#2ca02c")], None),
    ("backlog (messages)", [("backlog", "#9467bd")], consumer_target),
    ("client p99 (ms)", [("client_p99_ms", "#ff7f0e")], None),
]
H = TOP + len(panels) * (PH + GAP) + 20
tmax = max(r["t_s"] for r in rows)
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{L}" y="18" font-size="13">--autoscale, steps {sys.argv[6]} req/s x {step_s:.0f} s, '
       f'period {period:g} s ({60 / period:.0f}x AWS)</text>']
for i, (title, series, line) in enumerate(panels):
    y0 = TOP + i * (PH + GAP) + 15
    vmax = max([r[k] for k, _ in series for r in rows if not math.isnan(r[k])] + [line or 0, 1]) * 1.1
    x = lambda t: L + (W - L - R) * t / tmax
    y = lambda v: y0 + PH - PH * v / vmax
    svg.append(f'<text x="{L}" y="{y0 - 4}">{title}</text>')
    svg.append(f'<rect x="{L}" y="{y0}" width="{W - L - R}" height="{PH}" fill="none" stroke="#999"/>')
    for s in (high_start, high_end):
        svg.append(f'<line x1="{x(s):.1f}" y1="{y0}" x2="{x(s):.1f}" y2="{y0 + PH}" stroke="#ccc" stroke-dasharray="4"/>')
    for frac in (0, 0.5, 1):
        svg.append(f'<text x="{L - 4}" y="{y(vmax / 1.1 * frac) + 4:.1f}" text-anchor="end">{vmax / 1.1 * frac:.0f}</text>')
    if line:
        svg.append(f'<line x1="{L}" y1="{y(line):.1f}" x2="{W - R}" y2="{y(line):.1f}" stroke="#999" stroke-dasharray="2"/>')
    for j, (k, colour) in enumerate(series):
        pts = " ".join(f"{x(r['t_s']):.1f},{y(r[k]):.1f}" for r in rows if not math.isnan(r[k]))
        svg.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        svg.append(f'<text x="{W - R - 120 + 60 * j}" y="{y0 - 4}" fill="{colour}">{k}</text>')
svg.append(f'<text x="{W / 2}" y="{H - 4}" text-anchor="middle">seconds since the load started '
           f'(dashed: the high step)</text></svg>')
(out / "chart.svg").write_text("\n".join(svg) + "\n")
