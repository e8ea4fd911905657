#!/usr/bin/env bash
# What RabbitMQ 4.0 + PostgreSQL 17 cost against RabbitMQ 3.10 + PostgreSQL 15 on this machine,
# paired in one invocation: the engines alternate within each repeat (order rotated), so both sides
# of every ratio come from the same hour of a shared machine.
#
#   bench/engines-cost.sh [REPS=3] [SECONDS=20] [MESSAGES=1000000] [QUORUM_SECONDS=30]
#
# Per engine and repeat, all started the same way (the local jar's launchers, the tests' code):
# a one-node broker (RabbitClusterMain 1 management) and a PostgreSQL primary alone (PostgresMain)
# of that release, fresh each time, then
#  1. the server jar and the consumer jar on them; after a warm-up (10 s do-nothing, 30 s reviews),
#     wrk for SECONDS against the do-nothing POST /bench/noop and against POST /review (256
#     connections, bench/wrk/post-review-sustained.lua), the two in rotated order; after the
#     review run, the seconds until the consumer has emptied the queue (it keeps up: about 0);
#  2. the drain of MESSAGES single-review messages (bench/java/FillQueue.java, then the consumer
#     jar: drain-watch.py's rate, and the whole time from the consumer's start to the last);
#  3. then the broker and the database stop, and a 3-node cluster of that release measures the
#     quorum queue's confirmed bytes/s: rabbitmq-perf-test, 6 producers, 110,000-byte persistent
#     messages, confirm window 50, one quorum queue of 3 members, one consumer, QUORUM_SECONDS.
# ENGINES (default "3.10+15 4.0+17") lists RABBITMQ+POSTGRESQL pairs, the first the baseline of the
# ratios: 3.10 and 15 are the machine's installed releases, 4.0 and 17 the Debian 13 root's
# (embedded/engines.sh ensure makes it); "4.0+15 3.10+17" split a difference between the engines.
# Writes results/${ENGINES_COST_OUT:-engines-4.0/cost}/{data.csv,summary.json,chart.svg,table.md}.
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; SECS="${2:-20}"; MESSAGES="${3:-1000000}"; QSECS="${4:-30}"
NAME="engines-cost"
OUT="$RESULTS/${ENGINES_COST_OUT:-engines-4.0/cost}"; mkdir -p "$OUT"
COMMAND="ENGINES='${ENGINES:-3.10+15 4.0+17}' bench/engines-cost.sh $REPS $SECS $MESSAGES $QSECS"
require_jars; require_local_jar; require_perftest
"$REPO/embedded/engines.sh" check >/dev/null || { echo "no Debian 13 root (RabbitMQ 4.0, PostgreSQL 17): run embedded/engines.sh ensure" >&2; exit 2; }
PT_CP="$(printf '%s:' "$PERFTEST_DIR"/*.jar)"
CONNS=256
machine_json >"$WORK/$NAME-machine.json"

read -r -a engines <<<"${ENGINES:-3.10+15 4.0+17}"

# use_engine RABBITMQ+POSTGRESQL: exports the variables that choose the releases (the launchers
# read them): 3.10 and 15 are the installed ones.
use_engine() {
  local r="${1%+*}" p="${1#*+}"
  [[ "$r" == 3.10 ]] && r=installed
  [[ "$p" == 15 ]] && p=installed
  export ALBUMSTORE_RABBITMQ="$r" ALBUMSTORE_POSTGRESQL="$p"
}

# stop_launched PID HOLDER: ends a launcher (its shutdown hook stops what it started), bounded.
stop_launched() {
  kill "$2" 2>/dev/null || true
  stop_pid "$1"
}

# single_node ENGINE REP: the server/consumer measurements and the drain on a fresh broker and
# database of ENGINE; sets ROW to the columns from rabbitmq to drain_seconds.
single_node() {
  local b_pid b_hold b_addr p_pid p_hold p_port rv pv
  read -r b_pid b_hold b_addr RMQ_API <<<"$(start_cluster 1 management)"
  BENCH_PIDS+=("$b_pid" "$b_hold")
  read -r p_pid p_hold p_port <<<"$(start_postgres)"
  BENCH_PIDS+=("$p_pid" "$p_hold")
  [[ -n "$RMQ_API" && -n "$p_port" ]] || { echo "the $1 broker or database did not start" >&2; exit 3; }
  AMQP_URI="amqp://guest:guest@$b_addr/%2F"
  JDBC_URL="jdbc:postgresql://127.0.0.1:$p_port/albumstore"
  rv=$(curl -s -u "$RMQ_AUTH" "$RMQ_API/api/overview" | jq -r .rabbitmq_version)
  pv=$(psql -h 127.0.0.1 -p "$p_port" -U postgres -d albumstore -Atc 'show server_version' | cut -d' ' -f1)
  psql -h 127.0.0.1 -p "$p_port" -U postgres -d albumstore -v ON_ERROR_STOP=1 -qf "$REPO/schema.sql" >/dev/null
  log "$1 (rep $2): RabbitMQ $rv at $b_addr, PostgreSQL $pv on $p_port"
  http_pair "$1" "$2"
  drain "$1" "$2" "$p_port"
  ROW="$rv,$pv,$HTTP,$DRAIN"
  stop_launched "$b_pid" "$b_hold"; stop_launched "$p_pid" "$p_hold"
}

# http_pair ENGINE REP: sets HTTP to "noop_rps,review_rps,review_p99_ms,review_non2xx,catch_up_s".
http_pair() {
  local q port url noop review caught n_rps r_rps r_p99 r_non2xx
  q="bench.engines.$$.$1.r$2.http"; port=$(free_port); url="http://127.0.0.1:$port/albumstore"
  start_server "$NAME-server-$1-r$2" "$q" "$port"
  CONSUMER_METRICS_PORT=$(free_port) start_consumer "$NAME-consumer-$1-r$2" "$q"
  run_wrk "$CONNS" 10 "$url/bench/noop" post-noop >/dev/null
  run_wrk "$CONNS" 30 "$url" post-review-sustained >/dev/null
  await_empty "$q" 120 >/dev/null
  if (($2 % 2)); then
    noop=$(run_wrk "$CONNS" "$SECS" "$url/bench/noop" post-noop)
    review=$(run_wrk "$CONNS" "$SECS" "$url" post-review-sustained)
  else
    review=$(run_wrk "$CONNS" "$SECS" "$url" post-review-sustained)
    noop=$(run_wrk "$CONNS" "$SECS" "$url/bench/noop" post-noop)
  fi
  caught=$(await_empty "$q" 120)
  stop_pid "$CONSUMER_PID"; stop_pid "$SERVER_PID"
  read -r n_rps _ <<<"$noop"
  read -r r_rps _ r_p99 _ r_non2xx _ <<<"$review"
  log "$1: noop $n_rps req/s, review $r_rps req/s (p99 $r_p99 ms, $r_non2xx non-2xx), queue empty $caught s after"
  HTTP="$n_rps,$r_rps,$r_p99,$r_non2xx,$caught"
}

# await_empty QUEUE LIMIT: prints the seconds until QUEUE holds nothing (ready + unacked), or -1.
await_empty() {
  local t0=$SECONDS d
  while ((SECONDS - t0 < $2)); do
    d=$(queue_depth "$1"); [[ "$d" == 0 ]] && { echo $((SECONDS - t0)); return 0; }
    sleep 1
  done
  echo -1
}

# drain ENGINE REP PG_PORT: sets DRAIN to "fill_msgs_per_s,drain_msgs_per_s,drain_seconds".
drain() {
  local q fill t0 r rate secs applied fill_rate
  q="bench.engines.$$.$1.r$2.drain"
  psql -h 127.0.0.1 -p "$3" -U postgres -d albumstore -qc "truncate albums, album_reviews, applied_reviews"
  fill=$(ALBUMSTORE_AMQP_URI="$AMQP_URI" timeout 900 java -cp "$CONSUMER_JAR" "$BENCH_DIR/java/FillQueue.java" "$q" "$MESSAGES" 1000)
  fill_rate=$(awk -v n="$MESSAGES" '{printf "%.0f", n / $4}' <<<"$fill")
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # JAVA_OPTS_SERVICE is a list of flags
  r=$(python3 "$BENCH_DIR/drain-watch.py" "$MESSAGES" 900 "$WORK/$NAME-drain-$1-r$2.log" "$WORK/$NAME-drain-$1-r$2.csv" -- \
    java $JAVA_OPTS_SERVICE -jar "$CONSUMER_JAR" --queue "$q" --jdbc-url "$JDBC_URL" --amqp-uri "$AMQP_URI" --stats-interval 1)
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  read -r rate _ _ applied _ <<<"$r"
  log "$1: filled $MESSAGES at $fill_rate msg/s, drained at $rate msg/s ($applied applied), $secs s from the consumer's start"
  DRAIN="$fill_rate,$rate,$secs"
}

# quorum ENGINE REP: sets QUORUM to "quorum_msgs_per_s,quorum_mb_per_s" on a fresh 3-node cluster.
quorum() {
  local c_pid c_hold addr port logf pub
  read -r c_pid c_hold addr <<<"$(start_cluster 3)"
  BENCH_PIDS+=("$c_pid" "$c_hold")
  [[ -n "$addr" ]] || { echo "the $1 cluster did not start" >&2; exit 3; }
  port="${addr%%,*}"; port="${port##*:}"
  logf="$WORK/$NAME-quorum-$1-r$2.log"
  timeout $((QSECS + 120)) java -Xmx512m -cp "$PT_CP" com.rabbitmq.perf.PerfTest \
    --uri "amqp://guest:guest@127.0.0.1:$port/%2F" --queue "bench.engines.$$.$1.r$2.quorum" \
    -x 6 -y 1 --quorum-queue -c 50 -s 110000 -z "$QSECS" -ad true >"$logf" 2>&1 || true
  pub=$(grep -Eo 'sending rate avg: [0-9]+' "$logf" | grep -Eo '[0-9]+$' | tail -1)
  stop_launched "$c_pid" "$c_hold"
  log "$1: quorum queue on 3 nodes, ${pub:-nan} confirmed msg/s of 110,000 bytes"
  QUORUM="${pub:-nan},$(awk -v p="${pub:-0}" 'BEGIN {printf "%.1f", p * 110000 / 1e6}')"
}

echo "engine,rep,order,rabbitmq,postgresql,noop_rps,review_rps,review_p99_ms,review_non2xx,catch_up_s,fill_msgs_per_s,drain_msgs_per_s,drain_seconds,quorum_msgs_per_s,quorum_mb_per_s,review_over_noop,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < ${#engines[@]}; k++)); do
    engine="${engines[$(((k + rep - 1) % ${#engines[@]}))]}"
    load1=$(cut -d' ' -f1 /proc/loadavg)
    use_engine "$engine"
    single_node "$engine" "$rep"
    quorum "$engine" "$rep"
    ratio=$(awk -F, '{ printf "%.3f", $4 / $3 }' <<<"$ROW")
    echo "$engine,$rep,$k,$ROW,$QUORUM,$ratio,$load1" >>"$OUT/data.csv"
  done
done

python3 - "$WORK/$NAME-machine.json" "$OUT/extra.json" "$COMMAND" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
m.pop("rabbitmq", None); m.pop("postgres", None)  # each row names its engines' versions
json.dump({"machine": m, "command": sys.argv[3],
  "setup": "per engine and repeat, rotated: a fresh one-node broker and PostgreSQL primary of the release (RabbitClusterMain, PostgresMain: the tests' settings), server and consumer jars, wrk 256 connections noop vs review; the drain of a filled backlog by one consumer jar; a fresh 3-node cluster, perf-test 6 producers x 110,000-byte persistent messages, confirm window 50, one quorum queue"},
  open(sys.argv[2], "w"))
PY
ratios=()
for engine in "${engines[@]:1}"; do
  for m in review_over_noop review_rps drain_msgs_per_s drain_seconds fill_msgs_per_s quorum_mb_per_s; do
    ratios+=(--ratio "engine=$engine/engine=${engines[0]}:$m")
  done
done
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group engine \
  --metrics noop_rps,review_rps,review_over_noop,review_p99_ms,catch_up_s,fill_msgs_per_s,drain_msgs_per_s,drain_seconds,quorum_mb_per_s \
  "${ratios[@]}" \
  --extra "$OUT/extra.json" --title "RabbitMQ 4.0 + PostgreSQL 17 against 3.10 + 15, paired" | tee "$OUT/table.md"
rm -f "$OUT/extra.json"
