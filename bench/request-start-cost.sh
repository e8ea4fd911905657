#!/usr/bin/env bash
# What the client's extra headers cost the server: wrk sends the client's request mix
# (bench/wrk/client-mix.lua) to the do-nothing endpoint of one server, interleaved, with
#   none          wrk's plain requests,
#   key           + an Idempotency-Key on every write, as the client sends it,
#   client        + Accept and User-Agent too (what the client also sent until 2026-11-24),
#   client-start  + X-Request-Start too (the send time the server's "client send -> servlet in"
#                 stage is read from),
# and records the server's CPU time (utime + stime of its process) per request of each run.
#
#   bench/request-start-cost.sh [REPS=3] [CONNECTIONS=256] [SECONDS=10]
# writes results/request-start-cost/{data.csv,table.md}.
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; CONNS="${2:-256}"; SECS="${3:-10}"
OUT="$RESULTS/request-start-cost"; mkdir -p "$OUT"
[[ -f "$SERVER_JAR" ]] || { echo "missing $SERVER_JAR: run 'mvn -B -pl server -am package -DskipTests'" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 2; }
ensure_database
q=$(new_queue request-start); p=$(free_port)
start_server request-start-server "$q" "$p"
URL="http://127.0.0.1:$p/albumstore/bench/noop"
noop_album_id "$URL"

# CPU time of the server so far, in clock ticks.
server_ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat"; }

# run VARIANT -> "rps cpu_us_per_request"
run() {
  local before after line rps
  before=$(server_ticks)
  line=$(BENCH_HEADERS="$1" run_wrk "$CONNS" "$SECS" "$URL" client-mix)
  after=$(server_ticks)
  rps=$(cut -d' ' -f1 <<<"$line")
  python3 -c "import sys; r=float(sys.argv[1]); print(r, (int(sys.argv[3]) - int(sys.argv[2])) / int(sys.argv[4]) * 1e6 / (r * float(sys.argv[5])))" \
    "$rps" "$before" "$after" "$CLK_TCK" "$SECS"
}

log "warm-up: 10 s of each variant"
VARIANTS=(none key client client-start)
for v in "${VARIANTS[@]}"; do BENCH_HEADERS=$v run_wrk "$CONNS" 10 "$URL" client-mix >/dev/null; done

echo "variant,rep,rps,server_cpu_us_per_request,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < ${#VARIANTS[@]}; k++)); do
    v=${VARIANTS[$(((k + rep) % ${#VARIANTS[@]}))]}  # a different order each rep
    load1=$(cut -d' ' -f1 /proc/loadavg)
    read -r rps cpu <<<"$(run "$v")"
    echo "$v,$rep,$rps,$cpu,$load1" >>"$OUT/data.csv"
    log "rep $rep: $(tail -1 "$OUT/data.csv")"
  done
done
python3 - "$OUT/data.csv" <<'PY' | tee "$OUT/table.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| variant | runs | req/s (median) | server CPU µs/request (median, min-max) |")
print("|---|---|---|---|")
for v in ("none", "key", "client", "client-start"):
    r = [x for x in rows if x["variant"] == v]
    cpu = [float(x["server_cpu_us_per_request"]) for x in r]
    rps = [float(x["rps"]) for x in r]
    print(f"| {v} | {len(r)} | {statistics.median(rps):.0f} | {statistics.median(cpu):.2f} ({min(cpu):.2f}-{max(cpu):.2f}) |")
PY
