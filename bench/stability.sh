#!/usr/bin/env bash
# Stability: the default workload at a fixed rate (open model, client --rate) for a fixed time, with
# the consumer beside it; throughput, write p50/p99 and queue depth per second should stay flat.
#
#   bench/stability.sh [RATE=3000] [SECONDS=180] [THREADS=256]
# writes results/stability/{timeline.csv,summary.json,chart.svg,table.md}.
source "$(dirname "$0")/lib.sh"
RATE="${1:-3000}"; SECS="${2:-180}"; THREADS="${3:-256}"
OUT="$RESULTS/stability"; mkdir -p "$OUT"
require_jars; ensure_database; truncate_tables
machine_json >"$WORK/stability-machine.json"
q=$(new_queue stability); p=$(free_port)
start_server stability-server "$q" "$p"
start_consumer stability-consumer "$q"
ITER=$(((RATE * SECS + 4 * THREADS - 1) / (4 * THREADS)))
run="$WORK/runs/stability"; rm -rf "$run"
code=0
timeout $((SECS * 3 + 300)) java -Xmx1g -jar "$CLIENT_JAR" --url "http://127.0.0.1:$p/albumstore" --threads "$THREADS" \
  --iterations "$ITER" --rate "$RATE" --queue "$q" --rmq-api "$RMQ_API" --amqp-uri "$AMQP_URI" --no-progress \
  --out "$run" >"$WORK/stability-client.txt" 2>&1 || code=$?
cp "$run/timeline.csv" "$OUT/timeline.csv"
python3 - "$run/summary.json" "$OUT" "$WORK/stability-machine.json" "$code" <<PY
import csv, json, statistics, sys, os
sys.path.insert(0, "$BENCH_DIR")
import benchstat
s = json.load(open(sys.argv[1])); out = sys.argv[2]
rows = list(csv.DictReader(open(os.path.join(out, "timeline.csv"))))
num = lambda v: float(v) if v not in ("", None) else None
rows = [r for r in rows if num(r["writes_ok"]) is not None]
# Thirds of the run: flat means the last third looks like the first.
n = len(rows); thirds = [rows[:n//3], rows[n//3:2*n//3], rows[2*n//3:]]
def med(rs, k):
    v = [num(r[k]) for r in rs if num(r[k]) is not None]
    return statistics.median(v) if v else None
summary = {"command": "bench/stability.sh $RATE $SECS $THREADS", "exit_code": int(sys.argv[4]),
  "machine": json.load(open(sys.argv[3])) | {"loadavg_at_end": open("/proc/loadavg").read().split()[:3]},
  "client": {"throughput": s["throughput"], "p50_ms": s["allWrites"]["p50Ms"], "p99_ms": s["allWrites"]["p99Ms"],
             "max_ms": s["allWrites"]["maxMs"], "failed": s["allWrites"]["failed"], "broker": s.get("broker"),
             "verification": {k: (s.get("verification") or {}).get(k) for k in ("status", "albums", "mismatches")}},
  "thirds": [{"writes_per_s_median": med(t, "writes_ok"), "p50_ms_median": med(t, "writes_p50_ms"),
              "p99_ms_median": med(t, "writes_p99_ms"), "queue_depth_median": med(t, "queue_depth"),
              "queue_depth_max": max([num(r["queue_depth"]) for r in t if num(r["queue_depth"]) is not None], default=None)} for t in thirds]}
json.dump(summary, open(os.path.join(out, "summary.json"), "w"), indent=2)
series = {
  "writes/s": [(num(r["elapsed_s"]), num(r["writes_ok"]), None, None) for r in rows],
  "p99 ms x10": [(num(r["elapsed_s"]), 10 * (num(r["writes_p99_ms"]) or 0), None, None) for r in rows],
  "queue depth": [(num(r["elapsed_s"]), num(r["queue_depth"]) or 0, None, None) for r in rows],
}
open(os.path.join(out, "chart.svg"), "w").write(benchstat.lines_svg(series, "stability at $RATE req/s (open model)", "elapsed s", "value"))
lines = ["| third | writes/s (median) | p50 ms | p99 ms | queue depth median | max |", "|---|---|---|---|---|---|"]
for i, t in enumerate(summary["thirds"]):
    lines.append(f"| {i+1} | {t['writes_per_s_median']} | {t['p50_ms_median']} | {t['p99_ms_median']} | {t['queue_depth_median']} | {t['queue_depth_max']} |")
lines.append(f"overall: {s['throughput']:.0f} req/s, p50 {s['allWrites']['p50Ms']:.1f} ms, p99 {s['allWrites']['p99Ms']:.1f} ms, failed {s['allWrites']['failed']}, verification {summary['client']['verification']}, exit {sys.argv[4]}")
open(os.path.join(out, "table.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
