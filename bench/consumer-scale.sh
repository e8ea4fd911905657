#!/usr/bin/env bash
# 1, 2 and 4 consumer instances (separate JVMs) draining the same backlog from the
# quorum queue (3 members) of a 3-node RabbitMQ cluster; repeats interleaved, order rotated.
#
#   bench/consumer-scale.sh [MESSAGES=100000] [REPS=3] [INSTANCES="1 2 4"]
#
# One cluster for the whole run (start_cluster: RabbitClusterMain of the local jar, the same code as
# the tests and the cluster stack). Each run: tables truncated, a fresh quorum queue filled with
# MESSAGES single-review persistent messages with no consumer attached (bench/java/FillQueue.java,
# as bench/drain.sh does), then N consumer jars started at once, every one with the cluster's
# address list (ALBUMSTORE_AMQP_ADDRESSES) and default settings, and timed by drain-watch.py until
# their totals reach MESSAGES (rate from the first progress to the full count: the JVM starts are
# excluded). Commits/s: database transactions (the consumers' batches) per second, the writes the
# database sees. Writes results/${CONSUMER_SCALE_NAME:-consumer-scale}/{data.csv,summary.json,
# table.md,chart.svg} (and a README.md naming the command when there is none yet); the instances' logs and timelines in bench/target/work.
source "$(dirname "$0")/lib.sh"
MESSAGES="${1:-100000}"; REPS="${2:-3}"; INSTANCES="${3:-1 2 4}"
NAME="${CONSUMER_SCALE_NAME:-consumer-scale}"
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
COMMAND="bench/consumer-scale.sh $MESSAGES $REPS \"$INSTANCES\""
log "$COMMAND"
require_local_jar
[[ -f "$CONSUMER_JAR" ]] || { echo "missing $CONSUMER_JAR: run 'mvn -B -pl consumer -am package -DskipTests'" >&2; exit 2; }
ensure_database
machine_json >"$WORK/$NAME-machine.json"

read -r cpid chold addrs <<<"$(start_cluster 3)"; BENCH_PIDS+=("$cpid" "$chold")
first="${addrs%%,*}"
uri="amqp://guest:guest@$first/%2F"
log "3 nodes: $addrs"
# What every JVM here reads: the quorum queue with 3 members, declared alike by filler and consumers.
export ALBUMSTORE_QUEUE_TYPE=quorum ALBUMSTORE_QUORUM_GROUP_SIZE=3

read -r -a counts <<<"$INSTANCES"
echo "instances,rep,rate_msgs_per_s,commits_per_s,avg_batch,seconds,applied,fill_msgs_per_s,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  n=${#counts[@]}
  for ((k = 0; k < n; k++)); do
    m="${counts[$(((k + rep - 1) % n))]}"
    q="bench.consumerscale.$$.r$rep.i$m"
    truncate_tables
    fill=$(ALBUMSTORE_AMQP_URI="$uri" timeout 900 java -cp "$CONSUMER_JAR" "$BENCH_DIR/java/FillQueue.java" "$q" "$MESSAGES" 1000)
    fill_rate=$(awk -v n="$MESSAGES" '{print n/$4}' <<<"$fill")
    load1=$(cut -d' ' -f1 /proc/loadavg)
    # shellcheck disable=SC2086
    r=$(ALBUMSTORE_AMQP_ADDRESSES="$addrs" python3 "$BENCH_DIR/drain-watch.py" --instances "$m" "$MESSAGES" 900 \
      "$WORK/$NAME-i$m-r$rep.log" "$WORK/$NAME-timeline-i$m-r$rep.csv" -- \
      java $JAVA_OPTS_SERVICE -jar "$CONSUMER_JAR" --queue "$q" --jdbc-url "$JDBC_URL" --amqp-uri "$uri" \
      --stats-interval 1)
    read -r rate batch secs _ commits <<<"$r"
    applied_db=$(psql_bench -c "select count(*) from applied_reviews")
    echo "$m,$rep,$rate,$commits,$batch,$secs,$applied_db,$fill_rate,$load1" >>"$OUT/data.csv"
    log "rep $rep, $m instance(s): $rate msg/s, $commits commits/s, avg batch $batch, $secs s, $applied_db ledger rows (fill $fill_rate msg/s, load $load1)"
  done
done

python3 - "$WORK/$NAME-machine.json" "$OUT/extra.json" "$COMMAND" "$MESSAGES" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": sys.argv[3],
  "setup": f"3 RabbitMQ nodes clustered on loopback (RabbitClusterMain), a fresh quorum queue with 3 members per run "
           f"filled with {sys.argv[4]} single-review persistent messages (bench/java/FillQueue.java) with no consumer "
           "attached, tables truncated; then N consumer jars (separate JVMs, default settings, the cluster's address "
           "list) started at once; rate from their per-second logs between the first progress and the full count "
           "(drain-watch.py --instances N); commits/s = database transactions (batches) per second"}, open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group instances \
  --metrics rate_msgs_per_s,commits_per_s,avg_batch,fill_msgs_per_s \
  --ratio 'instances=2/instances=1:rate_msgs_per_s' --ratio 'instances=4/instances=1:rate_msgs_per_s' \
  --extra "$OUT/extra.json" --title "consumer instances draining a $MESSAGES-message backlog from a 3-node quorum queue (msg/s)" |
  tee "$OUT/table.md"
rm -f "$OUT/extra.json"
readme_stub "$OUT" "$COMMAND" "consumer instances draining one backlog from the 3-node cluster"
