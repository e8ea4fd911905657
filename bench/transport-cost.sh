#!/usr/bin/env bash
# What one request costs the client's transport, before choosing one. Against
# the do-nothing endpoint of one server, bench/java/TransportCost.java (Apache HttpClient 5 classic)
# and bench/java/TransportCostNetty.java (Netty, epoll where available) keep CONNECTIONS requests
# in flight for SECONDS after a warm-up of the same length, one JVM per run, interleaved (the order
# swapped every other round); each prints its CPU µs per request (the JVM's process CPU time).
#
#   bench/transport-cost.sh [ROUNDS=3] [CONNECTIONS=256] [SECONDS=4] [IO_THREADS=2]
# NETTY_CP: Netty's jars, when the client jar does not carry them (default: none, the client jar).
# Writes results/transport-cost/netty.csv (one row per run).
source "$(dirname "$0")/lib.sh"
ROUNDS="${1:-3}"; CONNS="${2:-256}"; SECS="${3:-4}"; IO="${4:-2}"
CP="$CLIENT_JAR${NETTY_CP:+:$NETTY_CP}"
OUT="$RESULTS/transport-cost"; mkdir -p "$OUT"
for j in "$SERVER_JAR" "$CLIENT_JAR"; do
  [[ -f "$j" ]] || { echo "missing $j: run 'mvn -B -pl server,client -am package -DskipTests'" >&2; exit 2; }
done
ensure_database
q=$(new_queue transport-cost); p=$(free_port)
start_server transport-cost-server "$q" "$p"
URL="http://127.0.0.1:$p/albumstore/bench/noop/review/like/noop"

run() {
  case "$1" in
    classic) java -Xmx512m -cp "$CP" "$BENCH_DIR/java/TransportCost.java" classic "$URL" "$CONNS" "$SECS" ;;
    netty) java -Xmx512m -cp "$CP" "$BENCH_DIR/java/TransportCostNetty.java" "$URL" "$CONNS" "$SECS" "$IO" ;;
  esac
}

echo "round,load1,mode,requests,rps,cpu_us_per_request" >"$OUT/netty.csv"
for ((r = 1; r <= ROUNDS; r++)); do
  order=(classic netty); ((r % 2 == 0)) && order=(netty classic)
  for m in "${order[@]}"; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    read -r mode n rps cpu <<<"$(run "$m")"
    log "round $r: $mode $n requests, $rps req/s, $cpu µs CPU/request (load1 $load)"
    echo "$r,$load,$mode,$n,$rps,$cpu" >>"$OUT/netty.csv"
  done
done
