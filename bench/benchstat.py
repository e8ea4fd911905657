#!/usr/bin/env python3
"""Summaries and charts for bench/ (stdlib only: no numpy/matplotlib on the bench machine).

Reads an experiment's data.csv (one row per run: the variant columns, `rep`, metric columns),
groups rows, and reports per group and metric the median of the repeats and a 95% confidence
interval (Student t interval of the mean; with n=3 it is wide, which is the honest answer).
Paired ratios (--ratio NUM/DEN on --pair-by columns) are computed per repeat first, so that both
sides of each ratio come from the same moment of a noisy machine, then summarised the same way.

  benchstat.py summarize DIR --group variant --metrics rps,p99_ms [--ratio 'variant=a/variant=b:rps']
               [--chart bars|lines --x COL --y rps --title T]
writes DIR/summary.json and DIR/chart.svg, prints a table.
"""
import argparse, csv, json, math, os, re, statistics, sys

T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
       10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042}


def t95(df):
    keys = sorted(k for k in T95 if k <= df)
    return T95[keys[-1]] if keys else float("nan")


def stats(values):
    v = [x for x in values if x is not None and not math.isnan(x)]
    if not v:
        return {"n": 0}
    out = {"n": len(v), "median": statistics.median(v), "mean": statistics.fmean(v),
           "min": min(v), "max": max(v)}
    if len(v) >= 2:
        half = t95(len(v) - 1) * statistics.stdev(v) / math.sqrt(len(v))
        out["ci95"] = [out["mean"] - half, out["mean"] + half]
    return out


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def key_of(row, cols):
    return " ".join(f"{c}={row[c]}" for c in cols)


def summarize(rows, group, metrics):
    groups = {}
    for r in rows:
        groups.setdefault(key_of(r, group), []).append(r)
    return {g: {m: stats([num(r.get(m)) for r in rs]) for m in metrics} for g, rs in groups.items()}


def paired_ratio(rows, spec, pair_by):
    """spec 'col=a/col=b:metric' -> stats of metric(a)/metric(b) over rows matched on pair_by."""
    sides, metric = spec.rsplit(":", 1)
    a, b = sides.split("/")
    (ca, va), (cb, vb) = a.split("=", 1), b.split("=", 1)
    pairs = {}
    for r in rows:
        k = key_of(r, pair_by)
        if r.get(ca) == va:
            pairs.setdefault(k, {})["a"] = num(r.get(metric))
        if r.get(cb) == vb:
            pairs.setdefault(k, {})["b"] = num(r.get(metric))
    ratios = [p["a"] / p["b"] for p in pairs.values() if p.get("a") is not None and p.get("b")]
    return stats(ratios) | {"ratios": ratios}


def fmt(x):
    if x is None:
        return "-"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def table(summary, metrics):
    lines = []
    head = ["group"] + [f"{m} median [95% CI]" for m in metrics]
    lines.append(" | ".join(head))
    lines.append(" | ".join("---" for _ in head))
    for g, ms in summary.items():
        cells = [g]
        for m in metrics:
            s = ms[m]
            if s.get("n", 0) == 0:
                cells.append("-")
            elif "ci95" in s:
                cells.append(f"{fmt(s['median'])} [{fmt(s['ci95'][0])}, {fmt(s['ci95'][1])}] (n={s['n']})")
            else:
                cells.append(f"{fmt(s['median'])} (n={s['n']})")
        lines.append(" | ".join(cells))
    return "\n".join("| " + l + " |" for l in lines)


# ---- SVG ---------------------------------------------------------------------------------------
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def nice_max(v):
    if v <= 0:
        return 1
    e = 10 ** math.floor(math.log10(v))
    for m in (1, 2, 2.5, 5, 10):
        if v <= m * e:
            return m * e
    return 10 * e


def svg_frame(w, h, title, ylabel, ymax, left=80):
    p = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
         f'<rect width="{w}" height="{h}" fill="white"/>',
         f'<text x="{w/2}" y="20" text-anchor="middle" font-size="14">{esc(title)}</text>',
         f'<text x="15" y="{h/2}" transform="rotate(-90 15 {h/2})" text-anchor="middle">{esc(ylabel)}</text>']
    top, bottom = 40, h - 70
    for i in range(6):
        y = bottom - (bottom - top) * i / 5
        p.append(f'<line x1="{left}" x2="{w-20}" y1="{y}" y2="{y}" stroke="#ddd"/>')
        p.append(f'<text x="{left-5}" y="{y+4}" text-anchor="end">{fmt(ymax*i/5)}</text>')
    return p, top, bottom


def bars_svg(summary, metric, title, ylabel):
    groups = [g for g in summary if summary[g][metric].get("n")]
    w, h = max(480, 110 * len(groups) + 120), 420
    hi = max((summary[g][metric].get("ci95", [0, summary[g][metric]["max"]])[1] for g in groups), default=1)
    hi = max([hi] + [summary[g][metric]["max"] for g in groups])
    ymax = nice_max(hi)
    p, top, bottom = svg_frame(w, h, title, ylabel, ymax)
    step = (w - 100) / max(1, len(groups))
    sy = lambda v: bottom - (bottom - top) * v / ymax
    for i, g in enumerate(groups):
        s = summary[g][metric]
        x = 80 + step * i + step * 0.15
        bw = step * 0.7
        p.append(f'<rect x="{x}" y="{sy(s["median"])}" width="{bw}" height="{bottom-sy(s["median"])}" fill="{COLORS[i % 8]}"/>')
        if "ci95" in s:
            lo, up = max(0, s["ci95"][0]), s["ci95"][1]
            cx = x + bw / 2
            p.append(f'<line x1="{cx}" x2="{cx}" y1="{sy(lo)}" y2="{sy(up)}" stroke="black"/>')
            p.append(f'<line x1="{cx-6}" x2="{cx+6}" y1="{sy(lo)}" y2="{sy(lo)}" stroke="black"/>')
            p.append(f'<line x1="{cx-6}" x2="{cx+6}" y1="{sy(up)}" y2="{sy(up)}" stroke="black"/>')
        p.append(f'<text x="{x+bw/2}" y="{sy(s["median"])-4}" text-anchor="middle">{fmt(s["median"])}</text>')
        for j, part in enumerate(g.split(" ")):
            p.append(f'<text x="{x+bw/2}" y="{bottom+16+14*j}" text-anchor="middle" font-size="10">{esc(part)}</text>')
    p.append("</svg>")
    return "\n".join(p)


def lines_svg(series, title, xlabel, ylabel, logx=False):
    """series: {name: [(x, y, lo, hi), ...]}"""
    w, h = 720, 420
    pts = [pt for s in series.values() for pt in s]
    if not pts:
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"
    ymax = nice_max(max(max(pt[1], pt[3] if pt[3] is not None else 0) for pt in pts))
    xs = [pt[0] for pt in pts]
    fx = (lambda v: math.log2(v)) if logx else (lambda v: v)
    x0, x1 = fx(min(xs)), fx(max(xs))
    x1 = x1 if x1 > x0 else x0 + 1
    p, top, bottom = svg_frame(w, h, title, ylabel, ymax)
    sx = lambda v: 80 + (w - 120) * (fx(v) - x0) / (x1 - x0)
    sy = lambda v: bottom - (bottom - top) * v / ymax
    for v in sorted(set(xs)):
        p.append(f'<text x="{sx(v)}" y="{bottom+16}" text-anchor="middle" font-size="10">{fmt(v)}</text>')
    p.append(f'<text x="{w/2}" y="{bottom+34}" text-anchor="middle">{esc(xlabel)}</text>')
    for i, (name, s) in enumerate(series.items()):
        c = COLORS[i % 8]
        s = sorted(s)
        p.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (
            c, " ".join(f"{sx(x)},{sy(y)}" for x, y, _, _ in s)))
        for x, y, lo, hi in s:
            if lo is not None and hi is not None and len(s) < 60:
                p.append(f'<line x1="{sx(x)}" x2="{sx(x)}" y1="{sy(max(0, lo))}" y2="{sy(hi)}" stroke="{c}"/>')
        p.append(f'<rect x="{90+150*i}" y="{h-22}" width="12" height="12" fill="{c}"/>')
        p.append(f'<text x="{106+150*i}" y="{h-12}">{esc(name)}</text>')
    p.append("</svg>")
    return "\n".join(p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["summarize"])
    ap.add_argument("dir")
    ap.add_argument("--group", default="variant")
    ap.add_argument("--metrics", required=True)
    ap.add_argument("--ratio", action="append", default=[])
    ap.add_argument("--pair-by", default="rep")
    ap.add_argument("--chart", choices=["bars", "lines", "none"], default="bars")
    ap.add_argument("--y", help="metric charted (default: the first)")
    ap.add_argument("--x", help="lines: x column (numeric); the other group columns name the series")
    ap.add_argument("--logx", action="store_true")
    ap.add_argument("--title", default="")
    ap.add_argument("--extra", help="JSON file merged into summary.json (commands, machine, notes)")
    a = ap.parse_args()
    rows = load(os.path.join(a.dir, "data.csv"))
    group = a.group.split(",")
    metrics = a.metrics.split(",")
    summ = summarize(rows, group, metrics)
    out = {"groups": summ, "ci": "95% Student-t interval of the mean of the repeats; median reported"}
    if a.ratio:
        out["paired_ratios"] = {r: paired_ratio(rows, r, a.pair_by.split(",")) for r in a.ratio}
    if a.extra and os.path.exists(a.extra):
        with open(a.extra) as f:
            out |= json.load(f)
    with open(os.path.join(a.dir, "summary.json"), "w") as f:
        json.dump(out, f, indent=2)
    print(table(summ, metrics))
    for r, s in out.get("paired_ratios", {}).items():
        ci = f" [{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}]" if "ci95" in s else ""
        print(f"paired ratio {r}: median {s.get('median', float('nan')):.3f}{ci} (n={s['n']}; "
              f"per repeat {', '.join(f'{x:.3f}' for x in s['ratios'])})")
    y = a.y or metrics[0]
    if a.chart == "bars":
        svg = bars_svg(summ, y, a.title, y)
    elif a.chart == "lines":
        series = {}
        for g, ms in summ.items():
            # "k=v k2=v2", where a value may itself hold spaces ("client_args=--warmup-iterations 20")
            parts = dict(re.findall(r"(\w+)=(.*?)(?= \w+=|$)", g))
            xv = float(parts.pop(a.x))
            name = " ".join(f"{k}={v}" for k, v in parts.items()) or y
            s = ms[y]
            if s.get("n"):
                ci = s.get("ci95", [None, None])
                series.setdefault(name, []).append((xv, s["median"], ci[0], ci[1]))
        svg = lines_svg(series, a.title, a.x, y, a.logx)
    else:
        return
    with open(os.path.join(a.dir, "chart.svg"), "w") as f:
        f.write(svg)


if __name__ == "__main__":
    main()
