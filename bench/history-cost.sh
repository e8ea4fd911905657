#!/usr/bin/env bash
# What the operation history costs the client: in ONE invocation, against the SAME server and
# consumer (default settings), the default workload run without and with --history, alternating
# which goes first in each repeat (a paired comparison on a noisy, shared machine). Per run: write
# throughput and p99 as the client measured them, the client process's CPU time per request
# (user + system, from getrusage of the java child), the history file's size per attempt, and what
# `client.jar check-history DIR` took (wall and CPU) to judge it against the database, and its
# verdict. The run with --history judges its history at its end too, the same work as that check:
# load_cpu_us_per_request takes the check's CPU out, leaving what recording cost during the load.
#
#   bench/history-cost.sh [THREADS=64] [REPS=5] [ITERATIONS=200] [CLIENT_EXTRA_ARGS...]
# e.g. bench/history-cost.sh 64 5 200                               (the measurement)
#      RESULTS=bench/target/smoke bench/history-cost.sh 8 1 20      (a smoke test)
# writes results/${HISTORY_COST_NAME:-history-cost}/{data.csv,summary.json,chart.svg,table.md};
# client run folders go to bench/target/work/runs (not committed).
source "$(dirname "$0")/lib.sh"
THREADS="${1:-64}"; REPS="${2:-5}"; ITER="${3:-200}"; shift 3 || true
NAME="${HISTORY_COST_NAME:-history-cost}"
VARIANTS=(off on)
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
require_jars; ensure_database
machine_json >"$WORK/$NAME-machine.json"
q=$(new_queue history-cost); p=$(free_port)
BASE="http://127.0.0.1:$p/albumstore"
start_server "$NAME-server" "$q" "$p"
start_consumer "$NAME-consumer" "$q"

# cpu_of FILE COMMAND...: runs COMMAND and writes "<its CPU seconds, user + system> <exit code>"
# to FILE.
cpu_of() {
  python3 -c '
import resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
u = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write(f"{u.ru_utime + u.ru_stime:.3f} {code}\n")' "$@"
}

echo "history,threads,rep,rps,write_p99_ms,attempts,client_cpu_s,cpu_us_per_request,load_cpu_us_per_request,history_bytes,bytes_per_attempt,check_s,check_cpu_s,verdict,failed,verify_status,exit_code,wall_s,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < ${#VARIANTS[@]}; k++)); do
    v=${VARIANTS[$(((k + rep - 1) % ${#VARIANTS[@]}))]}
    load1=$(cut -d' ' -f1 /proc/loadavg)
    run="$WORK/runs/$NAME-$v-t$THREADS-r$rep"
    rm -rf "$run"
    flag=--no-history; [[ $v == on ]] && flag=--history
    cpu_of "$WORK/$NAME-cpu.txt" timeout 1800 java -Xmx1g -jar "$CLIENT_JAR" --url "$BASE" \
      --threads "$THREADS" --iterations "$ITER" --queue "$q" --rmq-api "$RMQ_API" \
      --amqp-uri "$AMQP_URI" --consumer-metrics "http://127.0.0.1:${CONSUMER_METRICS_PORT:-9091}/metrics" \
      --jdbc-url "$JDBC_URL" "$flag" --no-progress --out "$run" "$@" \
      >"$WORK/$NAME-client-$v-t$THREADS-r$rep.txt" 2>&1
    cpu_code=$(cat "$WORK/$NAME-cpu.txt")
    check_s=""; check_cpu="0 -"; verdict=""; bytes=""
    if [[ $v == on ]]; then
      t0=$(date +%s.%N)
      cpu_of "$WORK/$NAME-check-cpu.txt" java -jar "$CLIENT_JAR" check-history "$run" --jdbc-url "$JDBC_URL" \
        >"$WORK/$NAME-check-t$THREADS-r$rep.txt" 2>&1
      check_s=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$t0" "$(date +%s.%N)")
      check_cpu=$(cat "$WORK/$NAME-check-cpu.txt")
      [[ ${check_cpu#* } == 0 ]] && verdict=clean || verdict=violations
      bytes=$(stat -c %s "$run/history.jsonl.gz")
    fi
    python3 - "$run/summary.json" "$v" "$THREADS" "$rep" "$cpu_code" "$load1" "$bytes" "$check_s" "$verdict" "${check_cpu% *}" >>"$OUT/data.csv" <<'PY'
import json, sys
path, v, t, rep, cpu_code, load1, size, check_s, verdict, check_cpu = sys.argv[1:11]
cpu, code = cpu_code.split()
try:
    s = json.load(open(path))
except Exception:
    print(",".join([v, t, rep] + [""] * 13 + [code, "", load1])); sys.exit()
w = s["allWrites"]
requests = sum(r["count"] for r in s["requests"])
attempts = requests + sum(s.get("retriedAttempts", {}).values())
per_attempt = f"{int(size) / attempts:.2f}" if size else ""
load_cpu = float(cpu) - float(check_cpu)
vals = [w["throughput"], w["p99Ms"], attempts, cpu, f"{float(cpu) * 1e6 / requests:.2f}",
        f"{load_cpu * 1e6 / requests:.2f}", size, per_attempt, check_s,
        check_cpu if size else "", verdict, w["failed"],
        (s.get("verification") or {}).get("status"), code, s["wallSeconds"], load1]
print(",".join([v, t, rep] + ["" if x is None else str(x) for x in vals]))
PY
    log "rep $rep history $v: $(tail -1 "$OUT/data.csv")"
  done
done
stop_pid "$CONSUMER_PID"; stop_pid "$SERVER_PID"
python3 - "$WORK/$NAME-machine.json" "$OUT/extra.json" "$*" <<PY
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": "bench/history-cost.sh $THREADS $REPS $ITER " + sys.argv[3],
  "setup": "one server jar + one consumer jar (defaults) for the whole run, client.jar on the same 2-core machine; without and with --history alternating, order rotated per repeat; rps = the writes' throughput; cpu_us_per_request = the client JVM's user+system CPU (start-up, verification and, with --history, the end-of-run check included) per logical request; check_s / check_cpu_s = wall and CPU seconds of a separate check-history DIR against the database (a JVM of its own); load_cpu_us_per_request = cpu_us_per_request less check_cpu_s per request (the end-of-run check does the same work)"}, open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group history \
  --metrics rps,write_p99_ms,cpu_us_per_request,load_cpu_us_per_request,bytes_per_attempt,check_s,check_cpu_s \
  --ratio 'history=on/history=off:rps' \
  --ratio 'history=on/history=off:cpu_us_per_request' \
  --ratio 'history=on/history=off:load_cpu_us_per_request' \
  --ratio 'history=on/history=off:write_p99_ms' \
  --chart bars --y rps --extra "$OUT/extra.json" \
  --title "client with and without --history ($THREADS threads)" | tee "$OUT/table.md"
awk -F, 'NR>1{print $1" threads "$2" rep "$3": verdict "$14", failed "$15", verify "$16", exit "$17}' "$OUT/data.csv" | tee -a "$OUT/table.md"
rm -f "$OUT/extra.json"
