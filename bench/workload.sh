#!/usr/bin/env bash
# Target 2 and the thread sweep: the default workload (client.jar: an album, two likes and a
# dislike per iteration) against the server with the consumer running beside it (default consumer
# settings), verification on. One fresh queue and truncated tables per run; server and consumer
# restarted per run so runs do not inherit each other's backlog or heap.
#
#   bench/workload.sh [THREADS_LIST=256] [REPS=3] [ITERATIONS=100] [CLIENT_EXTRA_ARGS...]
# e.g. bench/workload.sh 256 3 100        (target 2)
#      bench/workload.sh 1,2,4,8,16,32,64,128,256,512 3 50   (thread sweep)
# writes results/${WORKLOAD_NAME:-workload}/{data.csv,summary.json,chart.svg}; client run folders
# go to bench/target/work/runs (not committed).
source "$(dirname "$0")/lib.sh"
THREADS_LIST="${1:-256}"; REPS="${2:-3}"; ITER="${3:-100}"; shift 3 || true
NAME="${WORKLOAD_NAME:-workload}"
# Server setting sets to compare, separated by ';' (e.g. "ALBUMSTORE_PUBLISH_CHANNELS=4;ALBUMSTORE_PUBLISH_CHANNELS=16");
# each thread count runs once per set per repeat, interleaved. Default: the server's defaults.
IFS=';' read -r -a SETS <<<"${WORKLOAD_SERVER_ENVS:-defaults}"
# Client flag sets to compare, separated by ';', e.g. "--warmup-iterations 0;--warmup-iterations 100"
# (cold JVMs vs JIT-warm ones: the warm-up iterations are verified but not in the statistics);
# crossed with the server sets, interleaved. Default: none (the client's defaults).
IFS=';' read -r -a CSETS <<<"${WORKLOAD_CLIENT_ARGS:-}"
((${#CSETS[@]} > 0)) || CSETS=("")
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
require_jars; ensure_database
machine_json >"$WORK/$NAME-machine.json"
IFS=, read -r -a TL <<<"$THREADS_LIST"
echo "server_env,client_args,threads,rep,rps,p50_ms,p99_ms,max_ms,max_queue_depth,failed,verify_status,mismatches,exit_code,wall_s,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  n=$((${#TL[@]} * ${#SETS[@]} * ${#CSETS[@]}))
  for ((k = 0; k < n; k++)); do
    j=$(((k + rep - 1) % n))
    t=${TL[$((j % ${#TL[@]}))]}
    senv=${SETS[$((j / ${#TL[@]} % ${#SETS[@]}))]}
    cargs=${CSETS[$((j / (${#TL[@]} * ${#SETS[@]})))]}
    read -r -a cextra <<<"$cargs"
    extra=(); [[ "$senv" == defaults ]] || read -r -a extra <<<"$senv"
    q=$(new_queue workload); p=$(free_port)
    truncate_tables
    start_server "wl-server-$t-$rep" "$q" "$p" "${extra[@]}"
    start_consumer "wl-consumer-$t-$rep" "$q"
    load1=$(cut -d' ' -f1 /proc/loadavg)
    sl=$(tr -c 'A-Za-z0-9' '_' <<<"$senv$cargs" | tail -c 60)
    run="$WORK/runs/$NAME-$sl-t$t-r$rep"
    rm -rf "$run"
    code=0
    timeout 1800 java -Xmx1g -jar "$CLIENT_JAR" --url "http://127.0.0.1:$p/albumstore" --threads "$t" \
      --iterations "$ITER" --queue "$q" --rmq-api "$RMQ_API" --amqp-uri "$AMQP_URI" --no-progress \
      --out "$run" "${cextra[@]}" "$@" >"$WORK/$NAME-client-$sl-t$t-r$rep.txt" 2>&1 || code=$?
    stop_pid "$CONSUMER_PID"; stop_pid "$SERVER_PID"
    python3 - "$run/summary.json" "$t" "$rep" "$code" "$load1" "$senv" "$cargs" >>"$OUT/data.csv" <<'PY'
import json, sys
path, t, rep, code, load1, senv, cargs = sys.argv[1:8]
senv = '"' + senv + '"' + ',"' + cargs + '"'

try:
    s = json.load(open(path))
except Exception:
    print(",".join([senv, t, rep] + [""] * 8 + [code, "", load1])); sys.exit()
w, b, v = s["allWrites"], s.get("broker") or {}, s.get("verification") or {}
vals = [s["throughput"], w["p50Ms"], w["p99Ms"], w["maxMs"], b.get("maxDepth"), w["failed"],
        v.get("status"), v.get("mismatches"), code, s["wallSeconds"], load1]
print(",".join([senv, t, rep] + ["" if x is None else str(x) for x in vals]))
PY
    log "rep $rep threads $t: $(tail -1 "$OUT/data.csv")"
    delete_topology "$q"
  done
done
python3 - "$WORK/$NAME-machine.json" "$OUT/extra.json" "$*" <<PY
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": "WORKLOAD_SERVER_ENVS='${WORKLOAD_SERVER_ENVS:-defaults}' WORKLOAD_CLIENT_ARGS='${WORKLOAD_CLIENT_ARGS:-}' bench/workload.sh $THREADS_LIST $REPS $ITER " + sys.argv[3],
  "setup": "server jar + consumer jar (defaults) + client.jar on one 2-core machine; rps = successful writes per second of wall time (client); latency of all writes; queue depth max from the management API (sampled 1/s, refreshed every 5 s)"}, open(sys.argv[2], "w"))
PY
chart=bars; ((${#TL[@]} > 1)) && chart=lines
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group server_env,client_args,threads --metrics rps,p50_ms,p99_ms,max_queue_depth \
  --chart "$chart" --x threads --logx --extra "$OUT/extra.json" \
  --title "default workload with the consumer beside it (req/s)" | tee "$OUT/table.md"
awk -F, 'NR>1{print $1" "$2" threads "$3" rep "$4": verify "$11", mismatches "$12", exit "$13}' "$OUT/data.csv" | tee -a "$OUT/table.md"
rm -f "$OUT/extra.json"
