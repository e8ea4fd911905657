#!/usr/bin/env bash
# Target 4: what the load client costs. Against the do-nothing endpoint of one server
# (ALBUMSTORE_BENCH_ENDPOINTS=true, .../bench/noop answers every path with 200 and an albumID),
# the client (its full workload, verification off), wrk (the same request mix,
# bench/wrk/client-mix.lua) and Gatling (the same mix, bench/gatling: a Java DSL simulation built
# here from Maven Central) run at the same concurrency, interleaved, in the same way: each tool
# loads the server for WARM seconds (its JVM's JIT, its connections, the server), then for SECONDS
# its cost is measured in steady state: its process's CPU time (utime + stime from /proc/PID/stat)
# and the requests the server answered (its own counter, http_server_requests_seconds_count on
# /metrics, the same for every tool) at the start and at the end of that window. rps and CPU µs per
# request are of the window only: no JVM start-up, JIT warm-up or report writing in them. p50/p99/max
# are each tool's own figures for its whole run (warm-up included). The client's resident memory
# (VmRSS, sampled every 0.5 s) is recorded for every run; one run per size in MEM_SIZES shows
# whether it stays flat as the request count grows.
#
#   bench/client-cost.sh [REPS=3] [THREADS=256] [SECONDS=15] [REQUESTS=100000] [MEM_SIZES=100000,1000000]
# writes results/client-cost/{data.csv,memory.csv,summary.json,chart.svg}. CLIENT_COST_TOOLS
# (default "client wrk gatling") picks the tools, CLIENT_COST_WARM (default 20) the warm-up seconds.
# CLIENT_COST_HEADERS=client makes wrk and Gatling send the headers the client sends beside the
# request's own (Accept, User-Agent, an Idempotency-Key on every write: what the server pays for the
# client's exactly-once retries), default "none" (their own); CLIENT_COST_NAME names the output
# folder (default client-cost).
# REQUESTS is the memory runs' size unit only (kept for the command line's shape).
#
# CLIENT_COST_MODE=whole measures what a user sees instead (whole.sh's part below): every tool
# runs SECONDS (e.g. 60) from its launch, JVM start-up and warm-up included, and its figure is the
# requests the server answered from the tool's launch to its exit per second of SECONDS; the client
# runs as variants (CLIENT_COST_VARIANTS, default "client client-cds client-live": as it is, with
# an AppCDS archive made by a training run, with --live and --metrics-port scraped every second;
# also client-main: the build of MAIN_CLIENT_JAR, client-jdk25 / client-aot25: Temurin 25
# without and with an AOT cache, client-pgc: the JVM's Parallel GC instead of its default G1, and
# client-c1: the C1 compiler only, -XX:TieredStopAtLevel=1). For each JVM the CPU seconds of the
# process and of its JIT compiler threads in its first 15 s, and timeline.csv / warmup.md: every second of every run
# (requests answered, CPU and JIT seconds) and where the seconds go, phase by phase
# (bench/whole-timeline.py), and each client's seconds from launch to load (start_s). With
# CLIENT_COST_COUNT=N (client variants only) each sends N requests and its figure is its CPU per
# request. Output: results/client-cost/whole/.
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; THREADS="${2:-256}"; SECS="${3:-15}"; REQUESTS="${4:-100000}"; MEM_SIZES="${5:-100000,1000000}"
CLIENT_JAVA_OPTS="${CLIENT_JAVA_OPTS:--Xmx512m}"
# Seconds of load before the measured window, the same for every tool: a JVM on a busy machine is
# still compiling after 15 s (measured: the JIT was a third of the client's CPU samples 10-20 s in).
WARM="${CLIENT_COST_WARM:-20}"
# Load after the window, so that no tool is winding down inside it (sampling takes a moment, and
# a busy machine stretches every step).
TAIL=10
TOOLS="${CLIENT_COST_TOOLS:-client wrk gatling}"
read -r -a TOOL_LIST <<<"$TOOLS"
HEADERS="${CLIENT_COST_HEADERS:-none}"
OUT="$RESULTS/${CLIENT_COST_NAME:-client-cost}"; mkdir -p "$OUT"
GATLING_DIR="$BENCH_DIR/gatling"
# Gatling 3.15 needs java.lang opened (its log writer); the inlining flags and the other two opens
# are what Gatling's own launchers give its JVM (tuned as shipped). Its anonymous usage analytics
# go off, and its check for a newer release (an HTTPS request to Maven Central, which has no
# switch) goes to a closed port on loopback: every request of the experiment stays on 127.0.0.1.
GATLING_JAVA_OPTS="-XX:MaxInlineLevel=20 -XX:MaxTrivialSize=12 --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -Dgatling.data.enableAnalytics=false -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=9 -Djava.util.prefs.userRoot=$WORK/gatling-prefs"
require_jars; ensure_database
if [[ " $TOOLS " == *" gatling "* && ! -d "$GATLING_DIR/target/lib" ]]; then
  log "building the Gatling simulation (first run: downloads Gatling from Maven Central)"
  mvn -B -q -f "$GATLING_DIR/pom.xml" package dependency:copy-dependencies >&2
fi
machine_json >"$WORK/client-cost-machine.json"
q=$(new_queue client-cost); p=$(free_port)
start_server client-cost-server "$q" "$p"
URL="http://127.0.0.1:$p/albumstore/bench/noop"
noop_album_id "$URL"

# Requests the server has answered on the do-nothing endpoint (it counts them as uri="UNKNOWN").
served() {
  curl -s -m 5 "http://127.0.0.1:$p/albumstore/metrics" |
    awk '/^http_server_requests_seconds_count\{.*uri="UNKNOWN"/ { n += $2 } END { printf "%d\n", n }'
}

# watch PID TAG -> "rss_peak_kb rss_last_kb": samples the process's resident memory every 0.5 s
# (into client-cost-rss-TAG.csv) until it ends.
watch() {
  local pid="$1" tag="$2" peak=0 last=0 rss
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
  echo "$peak $last"
}

# window PID -> "rps cpu_us server_us": waits until the server has answered 100 more requests than
# when called (the tool's load has begun), then WARM seconds, then measures SECS seconds: requests
# served per second, and the tool's and the server's CPU µs per request served (what a tool's
# requests cost the server is part of its price on a shared machine); "- - -" if the tool ended
# before.
window() {
  local pid="$1" base t0 n0 c0 s0 t1 n1 c1 s1 i
  base=$(served)
  for ((i = 0; i < 1200; i++)); do  # a JVM tool's start-up, bounded (120 s)
    (($(served) - base >= 100)) && break
    kill -0 "$pid" 2>/dev/null || { echo "- - -"; return; }
    sleep 0.1
  done
  sleep "$WARM"
  c0=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) || { echo "- - -"; return; }
  s0=$(awk '{print $14 + $15}' "/proc/$SERVER_PID/stat")
  n0=$(served); t0=$(date +%s.%N)
  sleep "$SECS"
  c1=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) || { echo "- - -"; return; }
  s1=$(awk '{print $14 + $15}' "/proc/$SERVER_PID/stat")
  n1=$(served); t1=$(date +%s.%N)
  python3 -c "import sys; c0, c1, s0, s1, n0, n1, t0, t1, hz = map(float, sys.argv[1:]); n = n1 - n0; us = lambda a, b: round((b - a) / hz * 1e6 / n, 2) if n else '-'; print(round(n / (t1 - t0), 1), us(c0, c1), us(s0, s1))" \
    "$c0" "$c1" "$s0" "$s1" "$n0" "$n1" "$t0" "$t1" "$CLK_TCK"
}

# measure TAG COMMAND... -> "rps cpu_us server_us rss_peak_mb rss_end_mb": runs the tool (its output into
# client-cost-TAG.txt) and measures its window while a watcher samples its memory.
measure() {
  local tag="$1" pid rps cpu srv peak last; shift
  "$@" >"$WORK/client-cost-$tag.txt" 2>&1 &
  pid=$!
  watch "$pid" "$tag" >"$WORK/client-cost-watch-$tag.txt" &
  read -r rps cpu srv <<<"$(window "$pid")"
  wait "$pid" || true
  wait  # the watcher
  read -r peak last <"$WORK/client-cost-watch-$tag.txt"
  echo "$rps $cpu $srv $(python3 -c "import sys; print(int(sys.argv[1]) / 1024, int(sys.argv[2]) / 1024)" "$peak" "$last")"
}

LOAD_SECS=$((WARM + SECS + TAIL))

# run_client TAG -> "rps cpu_us server_us p50 p99 max rss_peak_mb rss_end_mb": THREADS virtual users for
# LOAD_SECS seconds (--duration counts from the start of the load, after the JVM's start-up).
run_client() {
  local tag="$1" dir="$WORK/runs/client-cost-$1" rps cpu srv peak last
  rm -rf "$dir"
  # shellcheck disable=SC2086
  read -r rps cpu srv peak last <<<"$(measure "$tag" java $CLIENT_JAVA_OPTS -jar "$CLIENT_JAR" --url "$URL" \
    --threads "$THREADS" --duration "$LOAD_SECS" --no-verify --rmq-api none --amqp-uri none --no-progress --out "$dir")"
  python3 - "$dir/summary.json" <<'PY' | { read -r p50 p99 mx; echo "$rps $cpu $srv $p50 $p99 $mx $peak $last"; }
import json, sys
w = json.load(open(sys.argv[1]))["allWrites"]
print(w["p50Ms"], w["p99Ms"], w["maxMs"])
PY
}

# run_wrk TAG -> "rps cpu_us server_us p50 p99 max - -": 2 threads, THREADS connections, LOAD_SECS
# seconds.
run_wrk_window() {
  local tag="$1" rps cpu srv
  read -r rps cpu srv _ _ <<<"$(measure "$tag" env BENCH_WRK_DIR="$BENCH_DIR/wrk" BENCH_HEADERS="$HEADERS" wrk -t 2 -c "$THREADS" -d "${LOAD_SECS}s" \
    --latency --timeout 10s -s "$BENCH_DIR/wrk/client-mix.lua" "$URL")"
  awk -v r="$rps" -v c="$cpu" -v s="$srv" '/^BENCH /{ print r, c, s, $3, $4, $5, "-", "-" }' "$WORK/client-cost-$tag.txt"
}

# run_gatling TAG -> "rps cpu_us server_us p50 p99 max rss_peak_mb rss_end_mb": THREADS users for
# LOAD_SECS seconds; p50/p99/max (whole ms) from Gatling's closing console summary ("Global Information").
run_gatling() {
  local tag="$1" rps cpu srv peak last
  # shellcheck disable=SC2086
  read -r rps cpu srv peak last <<<"$(measure "$tag" java $CLIENT_JAVA_OPTS $GATLING_JAVA_OPTS -DbaseUrl="$URL" -DalbumId="$BENCH_ALBUM_ID" -Dheaders="$HEADERS" \
    -Dusers="$THREADS" -Dseconds="$LOAD_SECS" -cp "$GATLING_DIR/target/classes:$GATLING_DIR/target/lib/*" \
    io.gatling.app.Gatling -s org.albumstore.bench.ClientMixSimulation -rf "$WORK/gatling" -l albumstore-bench)"
  python3 - "$WORK/client-cost-$tag.txt" <<'PY' | { read -r p50 p99 mx; echo "$rps $cpu $srv $p50 $p99 $mx $peak $last"; }
import re, sys
text = open(sys.argv[1]).read()
# "> response time 50th percentile (ms)    |   3 |   3 |   -": the OK column of the last summary.
def ok(label):
    m = re.findall(r"> " + re.escape(label) + r"[^|\n]*\|\s*\S+\s*\|\s*(\S+)", text)
    if not m:
        sys.exit("no '%s' in the Gatling output (see %s)" % (label, sys.argv[1]))
    return m[-1].replace(",", "")
print(ok("response time 50th percentile"), ok("response time 99th percentile"), ok("max response time"))
PY
}

if [[ "${CLIENT_COST_MODE:-window}" == whole ]]; then
  # shellcheck source=bench/client-cost-whole.sh
  source "$BENCH_DIR/client-cost-whole.sh"
  exit 0
fi

log "warm-up of the server: wrk 10 s"
run_wrk "$THREADS" 10 "$URL" client-mix >/dev/null

echo "tool,rep,rps,p50_ms,p99_ms,max_ms,rss_peak_mb,rss_end_mb,cpu_us_per_request,server_us_per_request,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < ${#TOOL_LIST[@]}; k++)); do
    tool=${TOOL_LIST[$(((k + rep) % ${#TOOL_LIST[@]}))]}  # a different order each rep
    load1=$(cut -d' ' -f1 /proc/loadavg)
    case $tool in
      wrk) read -r rps cpu srv p50 p99 mx peak last <<<"$(run_wrk_window "wrk-r$rep")" ;;
      client) read -r rps cpu srv p50 p99 mx peak last <<<"$(run_client "r$rep")" ;;
      gatling) read -r rps cpu srv p50 p99 mx peak last <<<"$(run_gatling "gatling-r$rep")" ;;
    esac
    [[ "$peak" == - ]] && peak="" && last=""
    echo "$tool,$rep,$rps,$p50,$p99,$mx,$peak,$last,$cpu,$srv,$load1" >>"$OUT/data.csv"
    log "rep $rep $tool: $(tail -1 "$OUT/data.csv")"
  done
done

# run_client_requests REQUESTS TAG -> "rps rss_peak_mb rss_end_mb ok": the memory runs, by request
# count (--iterations), no warm-up.
run_client_requests() {
  local requests="$1" tag="$2" iters dir="$WORK/runs/client-cost-$2" pid peak last
  iters=$(((requests + 4 * THREADS - 1) / (4 * THREADS)))
  rm -rf "$dir"
  # shellcheck disable=SC2086
  java $CLIENT_JAVA_OPTS -jar "$CLIENT_JAR" --url "$URL" --threads "$THREADS" --iterations "$iters" \
    --no-verify --rmq-api none --amqp-uri none --no-progress --out "$dir" >"$WORK/client-cost-$tag.txt" 2>&1 &
  pid=$!
  read -r peak last <<<"$(watch "$pid" "$tag")"
  wait "$pid" || true
  python3 - "$dir/summary.json" "$peak" "$last" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(s["throughput"], int(sys.argv[2]) / 1024, int(sys.argv[3]) / 1024, s["allWrites"]["ok"])
PY
}

echo "requests,rps,rss_peak_mb,rss_end_mb,load1" >"$OUT/memory.csv"
IFS=, read -r -a SIZES <<<"$MEM_SIZES"
for n in "${SIZES[@]}"; do
  load1=$(cut -d' ' -f1 /proc/loadavg)
  read -r rps peak last ok <<<"$(run_client_requests "$n" "mem$n")"
  echo "$ok,$rps,$peak,$last,$load1" >>"$OUT/memory.csv"
  cp "$WORK/client-cost-rss-mem$n.csv" "$OUT/rss-$n.csv"
  log "memory $n requests: $(tail -1 "$OUT/memory.csv")"
done

python3 - "$WORK/client-cost-machine.json" "$OUT/extra.json" <<PY
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": "CLIENT_COST_WARM=$WARM CLIENT_COST_HEADERS=$HEADERS bench/client-cost.sh $REPS $THREADS $SECS $REQUESTS $MEM_SIZES",
  "setup": "one server jar with ALBUMSTORE_BENCH_ENDPOINTS=true; tools: $TOOLS, each loading the server for $LOAD_SECS s: $WARM s of warm-up, a measured window of $SECS s, then the rest; rps and cpu_us_per_request of the window only: requests the server answered (its own counter) per second, and the tool process's and the server process's user+system time per such request; p50/p99/max: the tool's own figures for its whole run; client: --threads $THREADS --duration $LOAD_SECS, --no-verify, no broker sampling, JVM $CLIENT_JAVA_OPTS; wrk: 2 threads, $THREADS connections, the same mix (bench/wrk/client-mix.lua), headers $HEADERS; Gatling 3.15 (bench/gatling): $THREADS users (closed), shared keep-alive connections, the same mix with the multipart body encoded once, headers $HEADERS, warm-up request, analytics and update check off, JVM $CLIENT_JAVA_OPTS plus Gatling's launcher defaults (MaxInlineLevel=20, MaxTrivialSize=12, add-opens); memory runs: --iterations for the request count, no warm-up",
  "memory": open("$OUT/memory.csv").read()}, open(sys.argv[2], "w"))
PY
RATIOS=()
[[ " $TOOLS " == *" client "* && " $TOOLS " == *" wrk "* ]] && RATIOS+=(--ratio 'tool=client/tool=wrk:rps')
[[ " $TOOLS " == *" gatling "* && " $TOOLS " == *" wrk "* ]] && RATIOS+=(--ratio 'tool=gatling/tool=wrk:rps')
[[ " $TOOLS " == *" client "* && " $TOOLS " == *" gatling "* ]] && RATIOS+=(--ratio 'tool=client/tool=gatling:rps')
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group tool --metrics rps,p50_ms,p99_ms,rss_peak_mb,cpu_us_per_request,server_us_per_request \
  "${RATIOS[@]}" --extra "$OUT/extra.json" \
  --title "$TOOLS against the do-nothing endpoint, $THREADS connections (req/s)" | tee "$OUT/table.md"
echo "memory (one run per size):" | tee -a "$OUT/table.md"; column -ts, "$OUT/memory.csv" | tee -a "$OUT/table.md"
rm -f "$OUT/extra.json"
