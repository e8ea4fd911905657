#!/usr/bin/env bash
# Where the broker's CPU per review goes: one server alone (its queue has no consumer) under wrk's
# POST /review/{like|dislike}/{1..5000} (wrk/post-review-sustained.lua), and meanwhile RabbitMQ's
# own account of its scheduler threads (rabbitmq-diagnostics runtime_thread_stats) for SAMPLE
# seconds: emulator, GC, I/O polling and sleep per normal, dirty CPU and dirty I/O scheduler.
# Samples the machine's own broker (rabbit@localhost): run on a quiet machine.
#
#   bench/broker-thread-stats.sh [CONNECTIONS=256] [WARM=10] [SAMPLE=10]
# writes results/server-cpu-ab/broker-thread-stats.txt (the wrk line, then the sample).
source "$(dirname "$0")/lib.sh"
CONNS="${1:-256}"; WARM="${2:-10}"; SAMPLE="${3:-10}"
OUT="$RESULTS/server-cpu-ab"; mkdir -p "$OUT"
command -v rabbitmq-diagnostics >/dev/null || { echo "rabbitmq-diagnostics is needed (the broker's own tools)" >&2; exit 2; }
require_jars; ensure_database >/dev/null 2>&1
q=$(new_queue broker-thread-stats); p=$(free_port)
start_server broker-thread-stats-server "$q" "$p"
URL="http://127.0.0.1:$p/albumstore"
run_wrk "$CONNS" "$WARM" "$URL" post-review-sustained >/dev/null # JIT, connections, the queue
# The sample starts 4 s into a run that outlasts it by as much.
(sleep 4; rabbitmq-diagnostics -q runtime_thread_stats --sample-interval "$SAMPLE" >"$WORK/broker-thread-stats.txt" 2>&1) &
sampler=$!
line=$(run_wrk "$CONNS" $((SAMPLE + 8)) "$URL" post-review-sustained)
wait "$sampler" # not a bare wait: the server is a background job too
{
  echo "# bench/broker-thread-stats.sh $CONNS $WARM $SAMPLE, $(date -u '+%Y-%m-%d %H:%M') UTC; load1 $(cut -d' ' -f1 /proc/loadavg)"
  echo "# wrk (rps p50 p99 max ...): $line"
  echo
  cat "$WORK/broker-thread-stats.txt"
} >"$OUT/broker-thread-stats.txt"
cat "$OUT/broker-thread-stats.txt"
