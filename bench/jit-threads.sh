#!/usr/bin/env bash
# How much of a JVM's CPU its JIT compiler threads take while a bench runs: every INTERVAL seconds,
# per process, the CPU seconds (utime + stime from /proc) of the whole process and of its threads
# named "C1 CompilerThre..." / "C2 CompilerThre...". A share that stays high during measured runs
# means the process is not warm yet (results/archive/sustained-warm/: the consumer under bench/sustained.sh).
#
#   bench/jit-threads.sh [INTERVAL=5] [COUNT=120] PATTERN...
# e.g. bench/jit-threads.sh 5 80 albumstore-consumer.jar albumstore-server.jar >/tmp/jit.log &
# Each PATTERN is matched against the command lines of java processes (pgrep -f), at every sample,
# so processes that start later are picked up. Prints "TIME pattern:pid:total_s:jit_s ..." (seconds since the process began).
set -euo pipefail
INTERVAL="${1:-5}"; COUNT="${2:-120}"; shift 2 || true
(($# >= 1)) || { echo "usage: $0 INTERVAL COUNT PATTERN..." >&2; exit 2; }
TICKS=$(getconf CLK_TCK)

ticks() { awk '{ print $14 + $15 }' "$1" 2>/dev/null || echo 0; }

for ((i = 0; i < COUNT; i++)); do
  line=$(date -u +%T)
  for pattern in "$@"; do
    for pid in $(pgrep -f -- "$pattern" || true); do
      [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == java ]] || continue # not this script's own
      total=$(ticks "/proc/$pid/stat")
      jit=0
      for task in /proc/"$pid"/task/*; do
        case "$(cat "$task/comm" 2>/dev/null)" in
          "C1 CompilerThre"* | "C2 CompilerThre"*) jit=$((jit + $(ticks "$task/stat"))) ;;
        esac
      done
      line+=" $pattern:$pid:$(awk -v t="$total" -v k="$TICKS" 'BEGIN { printf "%.2f", t / k }'):$(awk -v t="$jit" -v k="$TICKS" 'BEGIN { printf "%.2f", t / k }')"
    done
  done
  echo "$line"
  sleep "$INTERVAL"
done
