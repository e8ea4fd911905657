#!/usr/bin/env bash
# CPU time per request of each process on the request path, for POST /review and the do-nothing
# POST /bench/noop of one server: the server JVM and RabbitMQ (from /proc/PID/stat) and wrk
# (user + system time of its run), divided by the requests wrk completed. This is the arithmetic
# behind target 1's ceiling (results/README.md).
#
#   bench/cpu-per-request.sh [REPS=2] [SECONDS=10] [CONNECTIONS=256]
# prints one line per variant and repeat; writes results/cpu-per-request/data.csv (the run of 2026-11-22 is in results/archive/cpu-per-request/).
source "$(dirname "$0")/lib.sh"
REPS="${1:-2}"; SECS="${2:-10}"; CONNS="${3:-256}"
OUT="$RESULTS/cpu-per-request"; mkdir -p "$OUT"
require_jars; ensure_database
q=$(new_queue cpu); p=$(free_port)
start_server cpu-server "$q" "$p"
A="http://127.0.0.1:$p/albumstore"
BEAM=$(pgrep -f beam.smp | head -1) || { echo "RabbitMQ (beam.smp) not found" >&2; exit 1; }
log "warm-up: 8 s of each"
run_wrk "$CONNS" 8 "$A/bench/noop" post-noop >/dev/null
run_wrk "$CONNS" 8 "$A" post-review >/dev/null
echo "variant,rep,rps,server_us,broker_us,wrk_us,total_us,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for v in noop review; do
    if [[ $v == noop ]]; then url="$A/bench/noop"; script=post-noop; else url="$A"; script=post-review; fi
    load1=$(cut -d' ' -f1 /proc/loadavg)
    s0=$(cpu_s "$SERVER_PID"); b0=$(cpu_s "$BEAM")
    TIMEFORMAT="%U %S"
    { time wrk -t2 -c"$CONNS" -d"${SECS}s" -s "$BENCH_DIR/wrk/$script.lua" "$url" >"$WORK/cpu-wrk.out" 2>&1; } 2>"$WORK/cpu-wrk.time"
    s1=$(cpu_s "$SERVER_PID"); b1=$(cpu_s "$BEAM")
    req=$(grep -Eo '^ +[0-9]+ requests' "$WORK/cpu-wrk.out" | grep -Eo '[0-9]+')
    read -r wu ws <"$WORK/cpu-wrk.time"
    python3 - "$v" "$rep" "$req" "$SECS" "$s0" "$s1" "$b0" "$b1" "$wu" "$ws" "$load1" <<'PY' | tee -a "$OUT/data.csv"
import sys
v, rep, req, secs, s0, s1, b0, b1, wu, ws, load1 = sys.argv[1:]
req = int(req); us = lambda sec: 1e6 * sec / req
srv, brk, wrk = us(float(s1) - float(s0)), us(float(b1) - float(b0)), us(float(wu) + float(ws))
print(f"{v},{rep},{req / float(secs):.0f},{srv:.1f},{brk:.1f},{wrk:.1f},{srv + brk + wrk:.1f},{load1}")
PY
    curl -s -o /dev/null -u "$RMQ_AUTH" -X DELETE "$RMQ_API/api/queues/%2F/$q/contents" || true
  done
done
