#!/usr/bin/env bash
# Ledger retention soak: the whole pipeline at a fixed rate for a bounded time, with a short ledger
# retention, sampling the exactly-once ledger (applied_reviews) every few seconds. With retention the
# row count and pg_total_relation_size level off after one window (plus a pruning period and
# autovacuum's turn) instead of growing with the run.
#
#   bench/ledger-soak.sh [SECONDS=600] [RETENTION=60s] [RATE=1000] [SAMPLE_S=5] [THREADS=64]
# writes results/ledger-retention/{ledger.csv,chart.svg,summary.json,table.md}.
#
# The deleted rows' space is reused once VACUUM has run: autovacuum does it on a default PostgreSQL
# (and on RDS). Where the server runs with autovacuum = off (this workplace's PostgreSQL does, and the
# bench must not reconfigure a shared server), the script runs a plain `VACUUM applied_reviews` every
# VACUUM_S seconds (default 60, autovacuum's default naptime) in its place, and says so in
# summary.json ("vacuum"); the column "vacuums" counts them.
#
# A database of its own (BENCH_DB, default albumstore_ledger_soak): it is emptied at the start, and
# the table's size must be this run's alone.
BENCH_DB="${BENCH_DB:-albumstore_ledger_soak}"
source "$(dirname "$0")/lib.sh"
SECS="${1:-600}"; RETENTION="${2:-60s}"; RATE="${3:-1000}"; SAMPLE="${4:-5}"; THREADS="${5:-64}"
OUT="$RESULTS/ledger-retention"; mkdir -p "$OUT"
require_jars; ensure_database; truncate_tables
psql_bench -c "vacuum full applied_reviews" >/dev/null
machine_json >"$WORK/ledger-machine.json"
q=$(new_queue ledger); p=$(free_port)
start_server ledger-server "$q" "$p"
CONSUMER_METRICS_PORT="${CONSUMER_METRICS_PORT:-$(free_port)}"
start_consumer ledger-consumer "$q" --ledger-retention "$RETENTION"
metrics="http://127.0.0.1:$CONSUMER_METRICS_PORT/metrics"
ITER=$(((RATE * SECS + 4 * THREADS - 1) / (4 * THREADS)))
run="$WORK/runs/ledger"; rm -rf "$run"
code=0
timeout $((SECS * 3 + 300)) java -Xmx512m -jar "$CLIENT_JAR" --url "http://127.0.0.1:$p/albumstore" \
  --threads "$THREADS" --iterations "$ITER" --rate "$RATE" --queue "$q" --rmq-api "$RMQ_API" \
  --amqp-uri "$AMQP_URI" --no-progress --out "$run" >"$WORK/ledger-client.txt" 2>&1 &
CLIENT_PID=$!
BENCH_PIDS+=("$CLIENT_PID")

csv="$OUT/ledger.csv"
echo "elapsed_s,ledger_rows,ledger_total_bytes,dead_tuples,autovacuums,pruned_total,reviews_applied_total,vacuums" >"$csv"
VACUUM_S="${VACUUM_S:-60}"
AUTOVACUUM=$(psql_bench -c "show autovacuum")
vacuums=0; last_vacuum=$(date +%s)
start=$(date +%s)
while :; do
  now=$(date +%s); elapsed=$((now - start))
  row=$(psql_bench -F, -c "select (select count(*) from applied_reviews),
          pg_total_relation_size('applied_reviews'), n_dead_tup, autovacuum_count
        from pg_stat_user_tables where relname = 'applied_reviews'")
  m=$(curl -s -m 5 "$metrics" || true)
  pruned=$(awk '/^albumstore_consumer_ledger_pruned_total/{print $2}' <<<"$m")
  applied=$(awk '/^albumstore_consumer_reviews_applied_total/{print $2}' <<<"$m")
  if [[ $AUTOVACUUM != on ]] && (($(date +%s) - last_vacuum >= VACUUM_S)); then
    psql_bench -c "vacuum applied_reviews" >/dev/null && vacuums=$((vacuums + 1))
    last_vacuum=$(date +%s)
  fi
  echo "$elapsed,$row,${pruned:-},${applied:-},$vacuums" >>"$csv"
  kill -0 "$CLIENT_PID" 2>/dev/null || break
  ((elapsed < SECS + 60)) || break
  sleep "$SAMPLE"
done
wait "$CLIENT_PID" || code=$?
cp "$WORK/ledger-consumer.log" "$WORK/ledger-consumer-$(date -u +%Y%m%dT%H%M%S).log"

python3 - "$csv" "$OUT" "$WORK/ledger-machine.json" "$code" "$run/summary.json" <<PY
import csv, json, os, sys
sys.path.insert(0, "$BENCH_DIR")
import benchstat
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["ledger_rows"]]
out = sys.argv[2]
f = lambda r, k: float(r[k]) if r.get(k) not in ("", None) else 0.0
n = len(rows)
half = rows[n // 2:] if n else []
client = {}
if os.path.exists(sys.argv[5]):
    s = json.load(open(sys.argv[5]))
    client = {"throughput": s.get("throughput"), "failed": s.get("allWrites", {}).get("failed"),
              "verification": (s.get("verification") or {}).get("status")}
summary = {
  "command": "bench/ledger-soak.sh $SECS $RETENTION $RATE $SAMPLE $THREADS", "exit_code": int(sys.argv[4]),
  "retention": "$RETENTION", "samples": n,
  "vacuum": "autovacuum" if "$AUTOVACUUM" == "on" else "autovacuum is off on this server: VACUUM applied_reviews every $VACUUM_S s by the script",
  "machine": json.load(open(sys.argv[3])) | {"loadavg_at_end": open("/proc/loadavg").read().split()[:3]},
  "client": client,
  "ledger_rows_max": max((f(r, "ledger_rows") for r in rows), default=None),
  "ledger_bytes_max": max((f(r, "ledger_total_bytes") for r in rows), default=None),
  "second_half": {k: {"min": min((f(r, c) for r in half), default=None), "max": max((f(r, c) for r in half), default=None)}
                  for k, c in (("ledger_rows", "ledger_rows"), ("ledger_bytes", "ledger_total_bytes"))},
  "final": rows[-1] if rows else None,
}
json.dump(summary, open(os.path.join(out, "summary.json"), "w"), indent=2)
series = {
  "ledger rows (thousands)": [(f(r, "elapsed_s"), f(r, "ledger_rows") / 1e3, None, None) for r in rows],
  "ledger size (MB)": [(f(r, "elapsed_s"), f(r, "ledger_total_bytes") / 1e6, None, None) for r in rows],
  "reviews applied (x10^5)": [(f(r, "elapsed_s"), f(r, "reviews_applied_total") / 1e5, None, None) for r in rows],
}
open(os.path.join(out, "chart.svg"), "w").write(benchstat.lines_svg(
  series, "applied_reviews with retention $RETENTION at $RATE req/s", "elapsed s", "value"))
sh = summary["second_half"]
lines = ["| | max over the run | second half min | second half max |", "|---|---|---|---|",
  f"| ledger rows | {summary['ledger_rows_max']:.0f} | {sh['ledger_rows']['min']:.0f} | {sh['ledger_rows']['max']:.0f} |",
  f"| pg_total_relation_size (MB) | {summary['ledger_bytes_max'] / 1e6:.1f} | {sh['ledger_bytes']['min'] / 1e6:.1f} | {sh['ledger_bytes']['max'] / 1e6:.1f} |",
  f"final sample: {summary['final']}; client: {client}; exit {sys.argv[4]}"]
open(os.path.join(out, "table.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
