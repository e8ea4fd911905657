#!/usr/bin/env bash
# What read-your-writes costs and gives: in ONE run, against the SAME server and consumer (default
# settings, so GET /albums/{id} waits for an acknowledged album), the default workload (an album,
# two likes, a dislike per iteration) and the course's assignment-2 workload (--workload post-get:
# POST /albums, then GET /albums/{id} of that album at once), alternating which goes first in each
# repeat. Reported per workload: throughput (all successful requests/s, and albums created/s), the
# POST's and the GET's p50/p99, the GETs' retries (a 404 retried would show here), and how many
# GETs waited on the server and for how long (from its metrics).
#
#   bench/read-your-writes.sh [THREADS=256] [REPS=3] [ITERATIONS=100] [CLIENT_EXTRA_ARGS...]
# e.g. bench/read-your-writes.sh 256 3 100      (the measurement)
#      RESULTS=bench/target/smoke bench/read-your-writes.sh 8 1 20   (a smoke test)
# writes results/${RYW_NAME:-read-your-writes}/{data.csv,summary.json,chart.svg,table.md}; client
# run folders go to bench/target/work/runs (not committed).
source "$(dirname "$0")/lib.sh"
THREADS="${1:-256}"; REPS="${2:-3}"; ITER="${3:-100}"; shift 3 || true
NAME="${RYW_NAME:-read-your-writes}"
WORKLOADS=(album-reviews post-get)
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
require_jars; ensure_database
machine_json >"$WORK/$NAME-machine.json"
truncate_tables # once: both workloads then meet the same, growing tables
q=$(new_queue ryw); p=$(free_port)
BASE="http://127.0.0.1:$p/albumstore"
start_server "$NAME-server" "$q" "$p"
start_consumer "$NAME-consumer" "$q"

# Sum of the server's read-wait samples: "<count> <sum_seconds>" over every outcome.
read_waits() {
  curl -s -m 10 "$BASE/metrics" | awk '
    /^albumstore_read_wait_seconds_count/ { c += $NF }
    /^albumstore_read_wait_seconds_sum/ { s += $NF }
    END { printf "%d %.6f\n", c, s }'
}

echo "workload,threads,rep,rps,albums_per_s,post_p50_ms,post_p99_ms,get_p50_ms,get_p99_ms,get_retries,gets_waited,wait_mean_ms,failed,verify_status,mismatches,exit_code,wall_s,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < ${#WORKLOADS[@]}; k++)); do
    wl=${WORKLOADS[$(((k + rep - 1) % ${#WORKLOADS[@]}))]}
    load1=$(cut -d' ' -f1 /proc/loadavg)
    run="$WORK/runs/$NAME-$wl-t$THREADS-r$rep"
    rm -rf "$run"
    before=$(read_waits)
    code=0
    timeout 1800 java -Xmx1g -jar "$CLIENT_JAR" --url "$BASE" --threads "$THREADS" \
      --iterations "$ITER" --workload "$wl" --queue "$q" --rmq-api "$RMQ_API" --amqp-uri "$AMQP_URI" \
      --consumer-metrics "http://127.0.0.1:${CONSUMER_METRICS_PORT:-9091}/metrics" \
      --no-progress --out "$run" "$@" >"$WORK/$NAME-client-$wl-t$THREADS-r$rep.txt" 2>&1 || code=$?
    after=$(read_waits)
    python3 - "$run/summary.json" "$wl" "$THREADS" "$rep" "$code" "$load1" "$before" "$after" >>"$OUT/data.csv" <<'PY'
import json, sys
path, wl, t, rep, code, load1, before, after = sys.argv[1:9]
(c0, s0), (c1, s1) = [(int(x.split()[0]), float(x.split()[1])) for x in (before, after)]
waited = c1 - c0
wait_ms = (s1 - s0) * 1000 / waited if waited > 0 else None
try:
    s = json.load(open(path))
except Exception:
    print(",".join([wl, t, rep] + [""] * 12 + [code, "", load1])); sys.exit()
by = {r["type"]: r for r in s["requests"]}
post, get = by["POST /albums"], by.get("GET /albums") or {}
wall = s["wallSeconds"]
ok = sum(r["ok"] for r in s["requests"])
failed = sum(r["failed"] for r in s["requests"])
v = s.get("verification") or {}
has_get = get.get("count", 0) > 0
vals = [ok / wall if wall else None, post["ok"] / wall if wall else None,
        post["p50Ms"], post["p99Ms"],
        get["p50Ms"] if has_get else None, get["p99Ms"] if has_get else None,
        get["retries"] if has_get else None, waited, wait_ms, failed,
        v.get("status"), v.get("mismatches"), code, wall, load1]
print(",".join([wl, t, rep] + ["" if x is None else str(x) for x in vals]))
PY
    log "rep $rep $wl: $(tail -1 "$OUT/data.csv")"
  done
done
stop_pid "$CONSUMER_PID"; stop_pid "$SERVER_PID"
python3 - "$WORK/$NAME-machine.json" "$OUT/extra.json" "$*" <<PY
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": "bench/read-your-writes.sh $THREADS $REPS $ITER " + sys.argv[3],
  "setup": "one server jar + one consumer jar (defaults) for the whole run, client.jar on the same 2-core machine; the two workloads alternate, order rotated per repeat; rps = all successful requests per second of wall time, albums_per_s = successful POST /albums per second; latencies as the client measured them (retries included); gets_waited / wait_mean_ms = GET /albums/{id} that waited on the server for their album and their mean wait (server metrics, all outcomes)"}, open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group workload \
  --metrics rps,albums_per_s,post_p50_ms,post_p99_ms,get_p50_ms,get_p99_ms,gets_waited,wait_mean_ms \
  --ratio 'workload=post-get/workload=album-reviews:albums_per_s' \
  --ratio 'workload=post-get/workload=album-reviews:post_p99_ms' \
  --chart bars --y albums_per_s --extra "$OUT/extra.json" \
  --title "albums created per second: default workload vs post-get ($THREADS threads)" | tee "$OUT/table.md"
awk -F, 'NR>1{print $1" threads "$2" rep "$3": GET retries "$10", failed "$13", verify "$14", mismatches "$15", exit "$16}' "$OUT/data.csv" | tee -a "$OUT/table.md"
rm -f "$OUT/extra.json"
