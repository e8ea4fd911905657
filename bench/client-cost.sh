#!/usr/bin/env bash
# Target 4: what the load client costs. Against the do-nothing endpoint of one server
# (ALBUMSTORE_BENCH_ENDPOINTS=true, .../bench/noop answers every path with 200 and an albumID),
# the client (its full workload, verification off) and wrk (the same request mix,
# bench/wrk/client-mix.lua) run at the same concurrency, interleaved. The client's resident memory
# (VmRSS, sampled every 0.5 s) is recorded for every run; one run per size in MEM_SIZES shows
# whether it stays flat as the request count grows.
#
#   bench/client-cost.sh [REPS=3] [THREADS=256] [SECONDS_WRK=15] [REQUESTS=100000] [MEM_SIZES=100000,1000000]
# writes results/client-cost/{data.csv,memory.csv,summary.json,chart.svg}.
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; THREADS="${2:-256}"; SECS="${3:-15}"; REQUESTS="${4:-100000}"; MEM_SIZES="${5:-100000,1000000}"
CLIENT_JAVA_OPTS="${CLIENT_JAVA_OPTS:--Xmx512m}"
# The client's own warm-up in the rate comparison (iterations per thread, not measured), as wrk gets
# 10 s against the same server first: a cold JVM spends its first seconds compiling (measured: about
# 14% of the client's CPU samples were the JIT in a 5 s run). The memory runs have none.
WARMUP="${CLIENT_COST_WARMUP:-100}"
OUT="$RESULTS/client-cost"; mkdir -p "$OUT"
require_jars; ensure_database
machine_json >"$WORK/client-cost-machine.json"
q=$(new_queue client-cost); p=$(free_port)
start_server client-cost-server "$q" "$p"
URL="http://127.0.0.1:$p/albumstore/bench/noop"

# run_client REQUESTS TAG [WARMUP_ITERATIONS=0] -> "rps p50 p99 max rss_peak_mb rss_end_mb"
run_client() {
  local requests="$1" tag="$2" warmup="${3:-0}" iters dir pid peak=0 last=0 rss
  iters=$(((requests + 4 * THREADS - 1) / (4 * THREADS)))
  dir="$WORK/runs/client-cost-$tag"; rm -rf "$dir"
  # shellcheck disable=SC2086
  java $CLIENT_JAVA_OPTS -jar "$CLIENT_JAR" --url "$URL" --threads "$THREADS" --iterations "$iters" \
    --no-verify --rmq-api none --amqp-uri none --no-progress --warmup-iterations "$warmup" --out "$dir" >"$WORK/client-cost-$tag.txt" 2>&1 &
  pid=$!
  : >"$WORK/client-cost-rss-$tag.csv"
  local t0=$SECONDS
  while kill -0 "$pid" 2>/dev/null && ((SECONDS - t0 < 1800)); do
    rss=$(awk '/VmRSS/{print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    if [[ -n "$rss" && "$rss" -gt 0 ]]; then
      last=$rss; ((rss > peak)) && peak=$rss
      echo "$((SECONDS - t0)),$rss" >>"$WORK/client-cost-rss-$tag.csv"
    fi
    sleep 0.5
  done
  wait "$pid" || true
  python3 - "$dir/summary.json" "$peak" "$last" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); w = s["allWrites"]
print(s["throughput"], w["p50Ms"], w["p99Ms"], w["maxMs"], int(sys.argv[2]) / 1024, int(sys.argv[3]) / 1024, w["ok"])
PY
}

log "warm-up: wrk 10 s, client 20k requests"
run_wrk "$THREADS" 10 "$URL" client-mix >/dev/null
run_client 20000 warmup >/dev/null

echo "tool,rep,requests,rps,p50_ms,p99_ms,max_ms,rss_peak_mb,rss_end_mb,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for k in 0 1; do
    tool=$([[ $(((k + rep) % 2)) == 0 ]] && echo wrk || echo client)
    load1=$(cut -d' ' -f1 /proc/loadavg)
    if [[ $tool == wrk ]]; then
      read -r rps p50 p99 mx _ _ <<<"$(run_wrk "$THREADS" "$SECS" "$URL" client-mix)"
      echo "wrk,$rep,,$rps,$p50,$p99,$mx,,,$load1" >>"$OUT/data.csv"
    else
      read -r rps p50 p99 mx peak last ok <<<"$(run_client "$REQUESTS" "r$rep" "$WARMUP")"
      echo "client,$rep,$ok,$rps,$p50,$p99,$mx,$peak,$last,$load1" >>"$OUT/data.csv"
    fi
    log "rep $rep $tool: $(tail -1 "$OUT/data.csv")"
  done
done

echo "requests,rps,rss_peak_mb,rss_end_mb,load1" >"$OUT/memory.csv"
IFS=, read -r -a SIZES <<<"$MEM_SIZES"
for n in "${SIZES[@]}"; do
  load1=$(cut -d' ' -f1 /proc/loadavg)
  read -r rps _ _ _ peak last ok <<<"$(run_client "$n" "mem$n")"
  echo "$ok,$rps,$peak,$last,$load1" >>"$OUT/memory.csv"
  cp "$WORK/client-cost-rss-mem$n.csv" "$OUT/rss-$n.csv"
  log "memory $n requests: $(tail -1 "$OUT/memory.csv")"
done

python3 - "$WORK/client-cost-machine.json" "$OUT/extra.json" <<PY
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": "CLIENT_COST_WARMUP=$WARMUP bench/client-cost.sh $REPS $THREADS $SECS $REQUESTS $MEM_SIZES",
  "setup": "one server jar with ALBUMSTORE_BENCH_ENDPOINTS=true; client: --threads $THREADS, $REQUESTS requests after --warmup-iterations $WARMUP (memory runs: none), --no-verify, no broker sampling, JVM $CLIENT_JAVA_OPTS; wrk: 2 threads, $THREADS connections, the same mix (bench/wrk/client-mix.lua) for $SECS s",
  "memory": open("$OUT/memory.csv").read()}, open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group tool --metrics rps,p50_ms,p99_ms,rss_peak_mb \
  --ratio 'tool=client/tool=wrk:rps' --extra "$OUT/extra.json" \
  --title "client vs wrk against the do-nothing endpoint, $THREADS connections (req/s)" | tee "$OUT/table.md"
echo "memory (one run per size):" | tee -a "$OUT/table.md"; column -ts, "$OUT/memory.csv" | tee -a "$OUT/table.md"
rm -f "$OUT/extra.json"
