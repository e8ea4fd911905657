#!/usr/bin/env bash
# The real price of replication. rabbitmq-perf-test publishing with confirms (and one
# consumer: end to end) to a classic queue on one node, a quorum queue on one node, and a quorum
# queue with 3 members on a 3-node cluster; repeats interleaved, order rotated.
#
#   bench/replication.sh [REPS=3] [SECONDS=30] [PRODUCERS=4] [CONFIRM_WINDOW=100]
#
# REPLICATION_SIZES="1000 4000 ..." runs every variant at each message size (bytes; default 1000),
# REPLICATION_VARIANTS="quorum-1node quorum-3nodes" a subset of the variants (the queue
# ceiling at the sizes our bundles have).
#
# The nodes are the installed RabbitMQ's, started for this script (RabbitClusterMain of the local
# jar: the same code as the tests and the cluster stack), never the machine's own node.
# Writes results/${REPLICATION_NAME:-replication}/{data.csv,summary.json}.
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; SECONDS_RUN="${2:-30}"; PRODUCERS="${3:-4}"; WINDOW="${4:-100}"
SIZES="${REPLICATION_SIZES:-1000}"
NAME="${REPLICATION_NAME:-replication}"
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
require_local_jar
require_perftest
PT_CP="$(printf '%s:' "$PERFTEST_DIR"/*.jar)"

read -r pid1 hold1 addr1 <<<"$(start_cluster 1)"; BENCH_PIDS+=("$pid1" "$hold1")
read -r pid3 hold3 addr3 <<<"$(start_cluster 3)"; BENCH_PIDS+=("$pid3" "$hold3")
port1="${addr1%%,*}"; port1="${port1##*:}"
port3="${addr3%%,*}"; port3="${port3##*:}"
log "1 node: $addr1; 3 nodes: $addr3"

variants=()
for label in ${REPLICATION_VARIANTS:-classic-1node quorum-1node quorum-3nodes}; do
  case "$label" in
    classic-1node) v="$port1 classic" ;; quorum-1node) v="$port1 quorum" ;; quorum-3nodes) v="$port3 quorum" ;;
    *) echo "unknown variant $label" >&2; exit 2 ;;
  esac
  for size in $SIZES; do variants+=("$label $v $size"); done
done
echo "variant,size,rep,publish_msgs_per_s,consume_msgs_per_s,confirm_p50_us,confirm_p99_us,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  n=${#variants[@]}
  for ((k = 0; k < n; k++)); do
    read -r label port type size <<<"${variants[$(((k + rep - 1) % n))]}"
    q="bench.replication.$label.$size.$rep.$$"
    qflag=(-f persistent)
    [[ "$type" == quorum ]] && qflag=(--quorum-queue)
    load1=$(cut -d' ' -f1 /proc/loadavg)
    logf="$WORK/$NAME-$label-$size-r$rep.log"
    timeout $((SECONDS_RUN + 120)) java -Xmx512m -cp "$PT_CP" com.rabbitmq.perf.PerfTest \
      --uri "amqp://guest:guest@127.0.0.1:$port/%2F" -x "$PRODUCERS" -y 1 -u "$q" "${qflag[@]}" \
      -c "$WINDOW" -s "$size" -z "$SECONDS_RUN" -ad false >"$logf" 2>&1 || true
    pub=$(grep -Eo 'sending rate avg: [0-9]+' "$logf" | grep -Eo '[0-9]+$' | tail -1)
    con=$(grep -Eo 'receiving rate avg: [0-9]+' "$logf" | grep -Eo '[0-9]+$' | tail -1)
    # "confirm latency min/median/75th/95th/99th 123/456/... µs" (the last summary line)
    lat=$(grep -Eo 'confirm latency min/median/75th/95th/99th [0-9/]+' "$logf" | tail -1 | awk '{print $NF}')
    p50=$(cut -d/ -f2 <<<"${lat:-nan/nan/nan/nan/nan}")
    p99=$(cut -d/ -f5 <<<"${lat:-nan/nan/nan/nan/nan}")
    log "rep $rep $label $size B: publish ${pub:-nan}/s, consume ${con:-nan}/s, confirm p50 $p50 us"
    echo "$label,$size,$rep,${pub:-nan},${con:-nan},$p50,$p99,$load1" >>"$OUT/data.csv"
  done
done

python3 - "$OUT" <<'PY' | tee "$OUT/table.md"
import csv, json, statistics as st, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/data.csv")))
def med(label, size, col):
    v = [float(r[col]) for r in rows if (r["variant"], r["size"]) == (label, size) and r[col] not in ("", "nan")]
    return st.median(v) if v else None
summary = {}
print("| variant | message bytes | publish msg/s (confirms) | end to end msg/s | confirm p50 µs | confirm p99 µs |")
print("|---|---|---|---|---|---|")
for label, size in dict.fromkeys((r["variant"], r["size"]) for r in rows):
    m = {c: med(label, size, c) for c in ("publish_msgs_per_s", "consume_msgs_per_s", "confirm_p50_us", "confirm_p99_us")}
    summary[label if size == "1000" and len({r["size"] for r in rows}) == 1 else f"{label}@{size}"] = m
    print(f"| {label} | {size} | " + " | ".join("n/a" if x is None else f"{x:.0f}" for x in m.values()) + " |")
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)
PY
