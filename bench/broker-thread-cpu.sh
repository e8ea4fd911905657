#!/usr/bin/env bash
# The broker's CPU per review by thread class, user and system time apart: one server alone (its
# queue has no consumer) under wrk's POST /review/{like|dislike}/{1..5000}, and /proc/PID/task/*/stat
# of RabbitMQ's beam.smp before and after the run, summed per thread name without its number
# (normal schedulers, dirty I/O and dirty CPU schedulers, poller, aux, ...). Unlike
# rabbitmq-diagnostics runtime_thread_stats (bench/broker-thread-stats.sh), which reports the time
# a scheduler spends in each state, this is CPU the kernel charged. Samples the machine's own broker
# (rabbit@localhost): run on a quiet machine.
#
#   bench/broker-thread-cpu.sh [CONNECTIONS=256] [WARM=10] [SECONDS=15] [VAR=value ...]
# VAR=value: server settings, e.g. ALBUMSTORE_PUBLISH_CHANNELS=1. Appends to
# results/server-cpu-ab/broker-thread-cpu.txt (the command, the wrk line, the server's CPU and the
# broker's per thread class, µs per review) and prints the same.
source "$(dirname "$0")/lib.sh"
CONNS="${1:-256}"; WARM="${2:-10}"; SECS="${3:-15}"; shift $(($# < 3 ? $# : 3))
OUT="$RESULTS/server-cpu-ab"; mkdir -p "$OUT"
BEAM=$(pgrep -u rabbitmq -x beam.smp | head -1) || { echo "RabbitMQ (beam.smp of user rabbitmq) not found" >&2; exit 1; }
require_jars; ensure_database >/dev/null 2>&1

# "class user_ticks system_ticks" per thread class of the broker. A class is the thread name
# without its number; names are cut at 15 characters, so "10_dirty_io_sch" and "1_dirty_io_sche"
# are one class (dirty_io).
threads() {
  local t c
  for t in /proc/"$BEAM"/task/*; do
    c=$(cat "$t/comm" 2>/dev/null) || continue
    case "$c" in
      *dirty_io*) c=dirty_io ;;
      *dirty_cpu*) c=dirty_cpu ;;
      *) c=${c//[0-9]/}; c=${c#_} ;;
    esac
    awk -v c="$c" '{ s = $0; sub(/^.*\) /, "", s); split(s, f, " "); print c, f[12], f[13] }' "$t/stat" 2>/dev/null || true
  done | awk '{ u[$1] += $2; s[$1] += $3 } END { for (k in u) print k, u[k], s[k] }' | sort
}

q=$(new_queue broker-thread-cpu); p=$(free_port)
start_server broker-thread-cpu-server "$q" "$p" "$@"
URL="http://127.0.0.1:$p/albumstore"
run_wrk "$CONNS" "$WARM" "$URL" post-review-sustained >/dev/null # JIT, connections
threads >"$WORK/broker-threads.before"; s0=$(cpu_s "$SERVER_PID")
line=$(run_wrk "$CONNS" "$SECS" "$URL" post-review-sustained)
threads >"$WORK/broker-threads.after"; s1=$(cpu_s "$SERVER_PID")
reviews=$(awk -v r="${line%% *}" -v s="$SECS" 'BEGIN { printf "%d", r * s }')
tick_us=$((1000000 / CLK_TCK))
{
  echo "# bench/broker-thread-cpu.sh $CONNS $WARM $SECS $*, server $SERVER_JAR, $(date -u '+%Y-%m-%d %H:%M') UTC; load1 $(cut -d' ' -f1 /proc/loadavg)"
  echo "# wrk (rps p50 p99 max non2xx errors): $line"
  awk -v d="$s0" -v e="$s1" -v n="$reviews" 'BEGIN { printf "server          %6.2f us/review\n", (e - d) * 1e6 / n }'
  join "$WORK/broker-threads.before" "$WORK/broker-threads.after" | awk -v n="$reviews" -v t="$tick_us" '
    { u = ($4 - $2) * t / n; s = ($5 - $3) * t / n; U += u; S += s
      if (u + s >= 0.01) printf "broker %-16s user %6.2f  system %6.2f us/review\n", $1, u, s }
    END { printf "broker %-16s user %6.2f  system %6.2f us/review\n", "TOTAL", U, S }'
  echo
} | tee -a "$OUT/broker-thread-cpu.txt"
