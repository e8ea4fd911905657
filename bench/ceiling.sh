#!/usr/bin/env bash
# Target 1, one paired run: POST /review (publisher confirms, persistent messages) against the
# do-nothing POST /bench/noop of the same Tomcat, at the same concurrency, with the same load tool
# (wrk), interleaved; plus group commit vs one broker message per request
# (ALBUMSTORE_PUBLISH_BUNDLE_MAX=1, second and third server processes: 4 and 64 channels), plus RabbitMQ's own perf-test ceilings
# (publish with confirms, persistent; publish+consume at once; publish without confirms: the
# price of confirms), all in the same run.
#
#   bench/ceiling.sh [REPS=3] [SECONDS=15] [CONNECTIONS=256]
# writes results/ceiling/{data.csv,summary.json,chart.svg}.
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; SECS="${2:-15}"; CONNS="${3:-256}"
OUT="$RESULTS/ceiling"; mkdir -p "$OUT"
require_jars; require_perftest; ensure_database
machine_json >"$WORK/ceiling-extra.json.tmp"

qa=$(new_queue ceiling-gc); qb=$(new_queue ceiling-one); qc=$(new_queue ceiling-one64)
pa=$(free_port); pb=$(free_port); pc=$(free_port)
start_server ceiling-gc "$qa" "$pa"
start_server ceiling-one "$qb" "$pb" ALBUMSTORE_PUBLISH_BUNDLE_MAX=1
# One message per request at its best: 64 channels, i.e. 64 confirms in flight instead of 4.
start_server ceiling-one64 "$qc" "$pc" ALBUMSTORE_PUBLISH_BUNDLE_MAX=1 ALBUMSTORE_PUBLISH_CHANNELS=64
A="http://127.0.0.1:$pa/albumstore"; B="http://127.0.0.1:$pb/albumstore"; C="http://127.0.0.1:$pc/albumstore"
PT_CP="$(ls "$PERFTEST_DIR"/*.jar | tr '\n' ':')"

purge() { curl -s -o /dev/null -u "$RMQ_AUTH" -X DELETE "$RMQ_API/api/queues/%2F/$1/contents" || true; }

# Messages in the queue after a run (management figures refresh every 5 s, hence the wait).
messages_after() { sleep 6; queue_depth "$1"; }

perftest() { # perftest MODE QUEUE -> "send_rate recv_rate"; MODE: publish, both, publish-noconfirm
  local mode="$1" q="$2" y=0 confirm=(-c 256)
  [[ "$mode" == both ]] && y=1
  # Confirms off: the price of the publisher-confirm guarantee, on the broker alone.
  [[ "$mode" == publish-noconfirm ]] && confirm=()
  timeout $((SECS + 60)) java -Xmx512m -cp "$PT_CP" com.rabbitmq.perf.PerfTest --uri "$AMQP_URI" \
    -x 1 -y "$y" -u "$q" -f persistent "${confirm[@]}" -s 200 -z "$SECS" -ad false -qa x-queue-type=classic \
    >"$WORK/perftest-last.txt" 2>&1 || true
  local send recv
  send=$(grep -Eo 'sending rate avg: [0-9]+' "$WORK/perftest-last.txt" | grep -Eo '[0-9]+$' | tail -1)
  recv=$(grep -Eo 'receiving rate avg: [0-9]+' "$WORK/perftest-last.txt" | grep -Eo '[0-9]+$' | tail -1)
  echo "${send:-} ${recv:-}"
}
ptq=$(new_queue ceiling-perftest)

log "warm-up (JIT) of both servers, 10 s each"
run_wrk "$CONNS" 10 "$A/bench/noop" post-noop >/dev/null
run_wrk "$CONNS" 10 "$A" post-review >/dev/null
run_wrk "$CONNS" 10 "$B" post-review >/dev/null
run_wrk "$CONNS" 10 "$C" post-review >/dev/null
purge "$qa"; purge "$qb"; purge "$qc"

echo "variant,rep,order,rps,p50_ms,p99_ms,max_ms,non2xx,errors,requests_per_message,load1" >"$OUT/data.csv"
variants=(noop review-groupcommit review-onepermsg review-onepermsg-64ch perftest-publish perftest-both perftest-publish-noconfirm)
for ((rep = 1; rep <= REPS; rep++)); do
  # Rotate the order each repeat so no variant always runs first (drift of a shared machine).
  n=${#variants[@]}
  for ((k = 0; k < n; k++)); do
    v=${variants[$(((k + rep - 1) % n))]}
    load1=$(cut -d' ' -f1 /proc/loadavg)
    rpm=""
    case "$v" in
      noop) r=$(run_wrk "$CONNS" "$SECS" "$A/bench/noop" post-noop) ;;
      review-groupcommit)
        r=$(run_wrk "$CONNS" "$SECS" "$A" post-review)
        m=$(messages_after "$qa"); purge "$qa"
        rpm=$(python3 -c "r=float('${r%% *}')*$SECS; m=float('$m'); print(f'{r/m:.1f}' if m>0 else '')") ;;
      review-onepermsg)
        r=$(run_wrk "$CONNS" "$SECS" "$B" post-review)
        m=$(messages_after "$qb"); purge "$qb"
        rpm=$(python3 -c "r=float('${r%% *}')*$SECS; m=float('$m'); print(f'{r/m:.1f}' if m>0 else '')") ;;
      review-onepermsg-64ch)
        r=$(run_wrk "$CONNS" "$SECS" "$C" post-review)
        m=$(messages_after "$qc"); purge "$qc"
        rpm=$(python3 -c "r=float('${r%% *}')*$SECS; m=float('$m'); print(f'{r/m:.1f}' if m>0 else '')") ;;
      perftest-publish) read -r s _ < <(perftest publish "$ptq"); purge "$ptq"; r="$s" ;;
      perftest-both) read -r s rr < <(perftest both "$ptq"); purge "$ptq"; r="$rr" ;;
      perftest-publish-noconfirm) read -r s _ < <(perftest publish-noconfirm "$ptq"); purge "$ptq"; r="$s" ;;
    esac
    read -r rps p50 p99 mx non2xx errs <<<"$r"
    echo "$v,$rep,$k,$rps,${p50:-},${p99:-},${mx:-},${non2xx:-},${errs:-},$rpm,$load1" >>"$OUT/data.csv"
    log "rep $rep $v: $r (requests/message ${rpm:-n/a}, load $load1)"
  done
done

python3 - "$WORK/ceiling-extra.json.tmp" "$OUT/extra.json" <<PY
import json, sys
m = json.load(open(sys.argv[1]))
m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": "bench/ceiling.sh $REPS $SECS $CONNS",
  "setup": {"connections": $CONNS, "seconds_per_run": $SECS, "repeats": $REPS, "wrk_threads": 2,
    "servers": "three server jars (group commit = defaults; one message per request = ALBUMSTORE_PUBLISH_BUNDLE_MAX=1 with the default 4 channels, and with ALBUMSTORE_PUBLISH_CHANNELS=64), no consumer, queues purged after each run",
    "perftest": "rabbitmq-perf-test 2.22.1: 1 producer, persistent, confirms (256 outstanding; none in publish-noconfirm), 200-byte messages, classic queue; rps column = send rate (publish) or receive rate (both)"}}, open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --metrics rps,p50_ms,p99_ms,requests_per_message \
  --ratio 'variant=review-groupcommit/variant=noop:rps' --ratio 'variant=review-onepermsg/variant=noop:rps' \
  --ratio 'variant=review-onepermsg-64ch/variant=noop:rps' \
  --ratio 'variant=review-groupcommit/variant=review-onepermsg:rps' \
  --ratio 'variant=review-groupcommit/variant=review-onepermsg-64ch:rps' \
  --ratio 'variant=perftest-publish/variant=perftest-publish-noconfirm:rps' \
  --extra "$OUT/extra.json" --title "POST /review vs do-nothing, $CONNS connections (wrk), req/s or msg/s" \
  | tee "$OUT/table.md"
rm -f "$OUT/extra.json"
