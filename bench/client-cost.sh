#!/usr/bin/env bash
# Target 4: what the load client costs. Against the do-nothing endpoint of one server
# (ALBUMSTORE_BENCH_ENDPOINTS=true, .../bench/noop answers every path with 200 and an albumID),
# the client (its full workload, verification off), wrk (the same request mix,
# bench/wrk/client-mix.lua) and Gatling (the same mix, bench/gatling: a Java DSL simulation built
# here from Maven Central, its warm-up request to an outside host switched off) run at the same
# concurrency, interleaved; each tool's CPU time per request is taken from /proc. The client's resident memory
# (VmRSS, sampled every 0.5 s) is recorded for every run; one run per size in MEM_SIZES shows
# whether it stays flat as the request count grows.
#
#   bench/client-cost.sh [REPS=3] [THREADS=256] [SECONDS_WRK=15] [REQUESTS=100000] [MEM_SIZES=100000,1000000]
# writes results/client-cost/{data.csv,memory.csv,summary.json,chart.svg}. CLIENT_COST_TOOLS
# (default "client wrk gatling") picks the tools.
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; THREADS="${2:-256}"; SECS="${3:-15}"; REQUESTS="${4:-100000}"; MEM_SIZES="${5:-100000,1000000}"
CLIENT_JAVA_OPTS="${CLIENT_JAVA_OPTS:--Xmx512m}"
# The client's own warm-up in the rate comparison (iterations per thread, not measured), as wrk gets
# 10 s against the same server first: a cold JVM spends its first seconds compiling (measured: about
# 14% of the client's CPU samples were the JIT in a 5 s run). The memory runs have none.
WARMUP="${CLIENT_COST_WARMUP:-100}"
TOOLS="${CLIENT_COST_TOOLS:-client wrk gatling}"
read -r -a TOOL_LIST <<<"$TOOLS"
OUT="$RESULTS/client-cost"; mkdir -p "$OUT"
GATLING_DIR="$BENCH_DIR/gatling"
TICKS=$(getconf CLK_TCK)
require_jars; ensure_database
if [[ " $TOOLS " == *" gatling "* && ! -d "$GATLING_DIR/target/lib" ]]; then
  log "building the Gatling simulation (first run: downloads Gatling from Maven Central)"
  mvn -B -q -f "$GATLING_DIR/pom.xml" package dependency:copy-dependencies >&2
fi
machine_json >"$WORK/client-cost-machine.json"
q=$(new_queue client-cost); p=$(free_port)
start_server client-cost-server "$q" "$p"
URL="http://127.0.0.1:$p/albumstore/bench/noop"

# watch PID TAG -> "rss_peak_kb rss_last_kb cpu_ticks": samples the process's resident memory every
# 0.5 s (into client-cost-rss-TAG.csv) until it ends, and its CPU time (utime + stime, clock ticks)
# at the last sample (it cannot be read after the process has been reaped).
watch() {
  local pid="$1" tag="$2" peak=0 last=0 rss ticks=0 t
  : >"$WORK/client-cost-rss-$tag.csv"
  local t0=$SECONDS
  while kill -0 "$pid" 2>/dev/null && ((SECONDS - t0 < 1800)); do
    rss=$(awk '/VmRSS/{print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
    [[ -n "$t" && "$t" -gt 0 ]] && ticks=$t
    if [[ -n "$rss" && "$rss" -gt 0 ]]; then
      last=$rss; ((rss > peak)) && peak=$rss
      echo "$((SECONDS - t0)),$rss" >>"$WORK/client-cost-rss-$tag.csv"
    fi
    sleep 0.5
  done
  echo "$peak $last $ticks"
}

# CPU µs per request from clock ticks and a request count.
cpu_us() { python3 -c "import sys; n=int(sys.argv[3]); print(round(int(sys.argv[1]) / int(sys.argv[2]) * 1e6 / n, 2) if n else '')" "$1" "$TICKS" "$2"; }

# run_client REQUESTS TAG [WARMUP_ITERATIONS=0] -> "rps p50 p99 max rss_peak_mb rss_end_mb ok cpu_us"
# (cpu_us: the whole process, JVM start-up included, per request sent: its warm-up's too.)
run_client() {
  local requests="$1" tag="$2" warmup="${3:-0}" iters dir pid peak last ticks
  iters=$(((requests + 4 * THREADS - 1) / (4 * THREADS)))
  dir="$WORK/runs/client-cost-$tag"; rm -rf "$dir"
  # shellcheck disable=SC2086
  java $CLIENT_JAVA_OPTS -jar "$CLIENT_JAR" --url "$URL" --threads "$THREADS" --iterations "$iters" \
    --no-verify --rmq-api none --amqp-uri none --no-progress --warmup-iterations "$warmup" --out "$dir" >"$WORK/client-cost-$tag.txt" 2>&1 &
  pid=$!
  read -r peak last ticks <<<"$(watch "$pid" "$tag")"
  wait "$pid" || true
  python3 - "$dir/summary.json" "$peak" "$last" <<'PY' | { read -r rps p50 p99 mx pk ls ok; echo "$rps $p50 $p99 $mx $pk $ls $ok $(cpu_us "$ticks" "$((ok + warmup * THREADS * 4))")"; }
import json, sys
s = json.load(open(sys.argv[1])); w = s["allWrites"]
print(s["throughput"], w["p50Ms"], w["p99Ms"], w["maxMs"], int(sys.argv[2]) / 1024, int(sys.argv[3]) / 1024, w["ok"])
PY
}

# run_gatling SECONDS TAG -> "rps p50 p99 max rss_peak_mb rss_end_mb ok cpu_us": THREADS virtual
# users (one connection each) for SECONDS; figures from Gatling's console summary (ms, whole
# numbers), CPU of the whole JVM per request.
run_gatling() {
  local secs="$1" tag="$2" pid peak last ticks
  # shellcheck disable=SC2086
  java $CLIENT_JAVA_OPTS -DbaseUrl="$URL" -Dusers="$THREADS" -Dseconds="$secs" \
    -cp "$GATLING_DIR/target/classes:$GATLING_DIR/target/lib/*" io.gatling.app.Gatling \
    -s org.albumstore.bench.ClientMixSimulation -rf "$WORK/gatling" -l albumstore-bench \
    >"$WORK/client-cost-gatling-$tag.txt" 2>&1 &
  pid=$!
  read -r peak last ticks <<<"$(watch "$pid" "gatling-$tag")"
  wait "$pid" || true
  python3 - "$WORK/client-cost-gatling-$tag.txt" "$peak" "$last" <<'PY' | { read -r rps p50 p99 mx pk ls ok; echo "$rps $p50 $p99 $mx $pk $ls $ok $(cpu_us "$ticks" "$ok")"; }
import re, sys
text = open(sys.argv[1]).read()
# The last "Global Information" block: "> mean requests/sec   8230.4 (OK=8230.4 KO=-  )".
def ok(label):
    m = re.findall(r"> " + re.escape(label) + r"\s+\S+ \(OK=(\S+)", text)
    if not m:
        sys.exit("no '%s' in the Gatling output (see %s)" % (label, sys.argv[1]))
    return m[-1]
print(ok("mean requests/sec"), ok("response time 50th percentile"), ok("response time 99th percentile"),
      ok("max response time"), int(sys.argv[2]) / 1024, int(sys.argv[3]) / 1024, ok("request count"))
PY
}

# wrk's CPU µs per request: the user + system time of the finished children of this subshell
# (wrk and its pipe), read from /proc before and after.
run_wrk_cpu() {
  local me=$BASHPID before after line  # this shell, not the $(...) subshells below
  before=$(awk '{print $16 + $17}' "/proc/$me/stat")  # cutime + cstime: reaped children so far
  line=$(run_wrk "$THREADS" "$SECS" "$URL" client-mix)
  after=$(awk '{print $16 + $17}' "/proc/$me/stat")
  read -r rps p50 p99 mx _ _ <<<"$line"
  echo "$rps $p50 $p99 $mx $(python3 -c "import sys; print(round((int(sys.argv[2]) - int(sys.argv[1])) / int(sys.argv[3]) * 1e6 / (float(sys.argv[4]) * int(sys.argv[5])), 2))" "$before" "$after" "$TICKS" "$rps" "$SECS")"
}

log "warm-up: wrk 10 s, client 20k requests, Gatling 10 s"
for tool in "${TOOL_LIST[@]}"; do
  case $tool in
    wrk) run_wrk "$THREADS" 10 "$URL" client-mix >/dev/null ;;
    client) run_client 20000 warmup >/dev/null ;;
    gatling) run_gatling 10 warmup >/dev/null ;;
  esac
done

echo "tool,rep,requests,rps,p50_ms,p99_ms,max_ms,rss_peak_mb,rss_end_mb,cpu_us_per_request,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < ${#TOOL_LIST[@]}; k++)); do
    tool=${TOOL_LIST[$(((k + rep) % ${#TOOL_LIST[@]}))]}  # a different order each rep
    load1=$(cut -d' ' -f1 /proc/loadavg)
    case $tool in
      wrk)
        read -r rps p50 p99 mx cpu <<<"$(run_wrk_cpu)"
        echo "wrk,$rep,,$rps,$p50,$p99,$mx,,,$cpu,$load1" >>"$OUT/data.csv" ;;
      client)
        read -r rps p50 p99 mx peak last ok cpu <<<"$(run_client "$REQUESTS" "r$rep" "$WARMUP")"
        echo "client,$rep,$ok,$rps,$p50,$p99,$mx,$peak,$last,$cpu,$load1" >>"$OUT/data.csv" ;;
      gatling)
        read -r rps p50 p99 mx peak last ok cpu <<<"$(run_gatling "$SECS" "r$rep")"
        echo "gatling,$rep,$ok,$rps,$p50,$p99,$mx,$peak,$last,$cpu,$load1" >>"$OUT/data.csv" ;;
    esac
    log "rep $rep $tool: $(tail -1 "$OUT/data.csv")"
  done
done

echo "requests,rps,rss_peak_mb,rss_end_mb,load1" >"$OUT/memory.csv"
IFS=, read -r -a SIZES <<<"$MEM_SIZES"
for n in "${SIZES[@]}"; do
  load1=$(cut -d' ' -f1 /proc/loadavg)
  read -r rps _ _ _ peak last ok _ <<<"$(run_client "$n" "mem$n")"
  echo "$ok,$rps,$peak,$last,$load1" >>"$OUT/memory.csv"
  cp "$WORK/client-cost-rss-mem$n.csv" "$OUT/rss-$n.csv"
  log "memory $n requests: $(tail -1 "$OUT/memory.csv")"
done

python3 - "$WORK/client-cost-machine.json" "$OUT/extra.json" <<PY
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": "CLIENT_COST_WARMUP=$WARMUP bench/client-cost.sh $REPS $THREADS $SECS $REQUESTS $MEM_SIZES",
  "setup": "one server jar with ALBUMSTORE_BENCH_ENDPOINTS=true; tools: $TOOLS; client: --threads $THREADS, $REQUESTS requests after --warmup-iterations $WARMUP (memory runs: none), --no-verify, no broker sampling, JVM $CLIENT_JAVA_OPTS; wrk: 2 threads, $THREADS connections, the same mix (bench/wrk/client-mix.lua) for $SECS s; Gatling: $THREADS users (closed, one connection each), the same mix (bench/gatling) for $SECS s, JVM $CLIENT_JAVA_OPTS, warm-up request off; cpu_us_per_request: the tool process's user+system time per successful request (JVM tools: start-up and their own warm-up included)",
  "memory": open("$OUT/memory.csv").read()}, open(sys.argv[2], "w"))
PY
RATIOS=()
[[ " $TOOLS " == *" client "* && " $TOOLS " == *" wrk "* ]] && RATIOS+=(--ratio 'tool=client/tool=wrk:rps')
[[ " $TOOLS " == *" gatling "* && " $TOOLS " == *" wrk "* ]] && RATIOS+=(--ratio 'tool=gatling/tool=wrk:rps')
[[ " $TOOLS " == *" client "* && " $TOOLS " == *" gatling "* ]] && RATIOS+=(--ratio 'tool=client/tool=gatling:rps')
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group tool --metrics rps,p50_ms,p99_ms,rss_peak_mb,cpu_us_per_request \
  "${RATIOS[@]}" --extra "$OUT/extra.json" \
  --title "$TOOLS against the do-nothing endpoint, $THREADS connections (req/s)" | tee "$OUT/table.md"
echo "memory (one run per size):" | tee -a "$OUT/table.md"; column -ts, "$OUT/memory.csv" | tee -a "$OUT/table.md"
rm -f "$OUT/extra.json"
