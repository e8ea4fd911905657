#!/usr/bin/env bash
# Where a whole client run's JIT and CPU time go: one run of the client against the do-nothing
# endpoint (after the server is warmed by wrk), recorded by JFR with every compilation
# (bench/jfr/compilations.jfc) and summarised by bench/jit-phases.py: the compiler threads' seconds
# per phase of the run (since the JVM's start) and per owner of the compiled code (Netty, this
# project, the JDK, Micrometer...), C1 and C2 apart; then the client's CPU seconds per thread
# (bench/thread-cpu.py). CLIENT_JIT_WATCH=1 adds --live-port, polled every second (a browser), and
# --metrics-port, scraped every CLIENT_JIT_SCRAPE_EVERY s (default 15, the shipped Prometheus's),
# over kept-alive connections: what watching a run costs, by thread and in JIT time.
#   bench/client-jit.sh [SECONDS=60] [THREADS=256] [JAVA=java] [EXTRA CLIENT FLAGS...]
# e.g. bench/client-jit.sh 60 256 /usr/lib/jvm/temurin-25-jdk-amd64/bin/java
# Writes bench/target/work/client-jit.jfr and client-jit.md (the tables).
source "$(dirname "$0")/lib.sh"
SECS="${1:-60}"; THREADS="${2:-256}"; JAVA="${3:-java}"; shift $(($# < 3 ? $# : 3))
require_jars; ensure_database
q=$(new_queue client-jit); p=$(free_port)
start_server client-jit-server "$q" "$p"
url="http://127.0.0.1:$p/albumstore/bench/noop"
noop_album_id "$url"
run_wrk "$THREADS" 10 "$url" client-mix >/dev/null # the server's own warm-up
REC="$WORK/client-jit.jfr"; rm -f "$REC"
watch=()
if [[ -n "${CLIENT_JIT_WATCH:-}" ]]; then
  lp=$(free_port); mp=$(free_port); watch=(--live-port "$lp" --metrics-port "$mp" --live-linger 0)
fi
"$JAVA" -Xmx512m "-XX:StartFlightRecording=filename=$REC,settings=$BENCH_DIR/jfr/compilations.jfc" \
  -jar "$CLIENT_JAR" --url "$url" --threads "$THREADS" --duration "$SECS" --no-verify \
  --rmq-api none --amqp-uri none --no-progress --out "$WORK/runs/client-jit" "${watch[@]}" "$@" \
  >"$WORK/client-jit.txt" 2>&1 &
pid=$!
BENCH_PIDS+=("$pid")
if ((${#watch[@]})); then
  (sleep 2; scrape_while "$pid" 1 "http://127.0.0.1:$lp/state.json") &
  (sleep 2; scrape_while "$pid" "${CLIENT_JIT_SCRAPE_EVERY:-15}" "http://127.0.0.1:$mp/metrics") &
fi
python3 "$BENCH_DIR/thread-cpu.py" "$pid" $((SECS + 120)) >"$WORK/client-jit-threads.txt"
wait "$pid" || true
stop_pid "$SERVER_PID"
{
  grep -E '^(throughput|all writes)' "$WORK/client-jit.txt" || true
  python3 "$BENCH_DIR/jit-phases.py" "$REC"
  echo; echo "CPU seconds per thread"; echo; sed 's/^/    /' "$WORK/client-jit-threads.txt"
} | tee "$WORK/client-jit.md"
