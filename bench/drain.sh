#!/usr/bin/env bash
# Target 3: how fast the consumer drains a backlog of single-review messages, applied and
# committed (synchronous_commit stays on), by consumer setting; repeats interleaved.
#
#   bench/drain.sh [MESSAGES=200000] [REPS=3] [SETTINGS...]
# SETTINGS are quoted consumer flag sets (optionally starting with jar=PATH to run another build),
# or "perftest" (rabbitmq-perf-test consuming the same
# backlog: the broker's ceiling); default: perftest and the connection sweep
#   "perftest" "--connections 1" "--connections 2" "--connections 4" "--connections 8"
# (other flags at their defaults). Writes results/${DRAIN_NAME:-drain}/{data.csv,summary.json,chart.svg}
# and one timeline-<run>.csv per run in bench/target/work.
source "$(dirname "$0")/lib.sh"
MESSAGES="${1:-200000}"; REPS="${2:-3}"; shift 2 || true
if (($# == 0)); then set -- "perftest" "--connections 1" "--connections 2" "--connections 4" "--connections 8"; fi
NAME="${DRAIN_NAME:-drain}"
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
require_jars; require_perftest; ensure_database
PT_CP="$(ls "$PERFTEST_DIR"/*.jar | tr '\n' ':')"
machine_json >"$WORK/$NAME-machine.json"
echo "variant,rep,rate_msgs_per_s,avg_batch,seconds,applied,fill_msgs_per_s,load1,pg_us_per_msg,broker_us_per_msg,other_us_per_msg" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  n=$#
  for ((k = 0; k < n; k++)); do
    idx=$(((k + rep - 1) % n + 1))
    flags="${!idx}"
    # "jar=PATH rest": run another consumer jar (e.g. a build before a change) with the rest as flags.
    jar="$CONSUMER_JAR"
    if [[ "$flags" == jar=* ]]; then jar="${flags%% *}"; jar="${jar#jar=}"; flags="${flags#* }"; [[ "$flags" == jar=* ]] && flags=""; [[ "$jar" == /* ]] || jar="$REPO/$jar"; fi
    q=$(new_queue drain)
    truncate_tables
    fill=$(ALBUMSTORE_AMQP_URI="$AMQP_URI" timeout 900 java -cp "$CONSUMER_JAR" "$BENCH_DIR/java/FillQueue.java" "$q" "$MESSAGES" 1000)
    fill_rate=$(awk -v n="$MESSAGES" '{print n/$4}' <<<"$fill")
    load1=$(cut -d' ' -f1 /proc/loadavg)
    tag="$(tr -c 'a-z0-9' '_' <<<"${!idx}" | tail -c 60)r$rep"
    cpu0=$(tier_cpu_s)
    if [[ "$flags" == perftest* ]]; then
      # RabbitMQ's own consumer on the same backlog: the broker's delivery ceiling in this run
      # (1 consumer, prefetch 1000, multi-ack every 500, like the consumer's defaults).
      timeout 900 java -Xmx512m -cp "$PT_CP" com.rabbitmq.perf.PerfTest --uri "$AMQP_URI" -x 0 -y 1 \
        -u "$q" -p -ad false -q 1000 -A 500 -D "$MESSAGES" -z 600 >"$WORK/$NAME-$tag.log" 2>&1 || true
      rr=$(grep -Eo 'receiving rate avg: [0-9]+' "$WORK/$NAME-$tag.log" | grep -Eo '[0-9]+$' | tail -1)
      r="${rr:-nan} nan nan $MESSAGES"
    else
    # shellcheck disable=SC2086
    r=$(python3 "$BENCH_DIR/drain-watch.py" "$MESSAGES" 900 "$WORK/$NAME-$tag.log" "$WORK/$NAME-timeline-$tag.csv" -- \
      java $JAVA_OPTS_SERVICE -jar "$jar" --queue "$q" --jdbc-url "$JDBC_URL" --amqp-uri "$AMQP_URI" \
      --stats-interval 1 $flags)
    fi
    read -r rate batch secs _ <<<"$r"
    # CPU per message over the whole drain (the consumer's start included): PostgreSQL, RabbitMQ,
    # and the rest of the machine (the consumer JVM, mostly).
    cpu=$(awk -v n="$MESSAGES" -v a="$cpu0" -v b="$(tier_cpu_s)" 'BEGIN { split(a, x, " "); split(b, y, " ");
      pg = (y[1] - x[1]) * 1e6 / n; br = (y[2] - x[2]) * 1e6 / n; all = (y[3] - x[3]) * 1e6 / n;
      printf "%.1f,%.1f,%.1f", pg, br, all - pg - br }')
    applied_db=$(psql_bench -c "select count(*) from applied_reviews")
    label="${!idx}"
    echo "\"$label\",$rep,$rate,$batch,$secs,$applied_db,$fill_rate,$load1,$cpu" >>"$OUT/data.csv"
    log "rep $rep [$label]: $rate msg/s, avg batch $batch, $secs s, $applied_db ledger rows (fill $fill_rate msg/s, load $load1; CPU µs/msg postgres,rabbitmq,rest $cpu)"
    delete_topology "$q"
  done
done
python3 - "$WORK/$NAME-machine.json" "$OUT/extra.json" "$@" <<PY
import json, shlex, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": "bench/drain.sh $MESSAGES $REPS " + " ".join(shlex.quote(a) for a in sys.argv[3:]),
  "setup": "backlog of $MESSAGES single-review persistent messages (bench/java/FillQueue.java) in a fresh classic queue, tables truncated, then the consumer jar started; rate from its per-second log between the first progress and the full count; perftest = rabbitmq-perf-test 2.22.1, 1 consumer, prefetch 1000, multi-ack 500, consuming the same backlog (its average includes its start-up)"}, open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --metrics rate_msgs_per_s,avg_batch,fill_msgs_per_s,pg_us_per_msg,broker_us_per_msg,other_us_per_msg \
  --extra "$OUT/extra.json" --title "consumer drain rate, $MESSAGES-message backlog (msg/s)" | tee "$OUT/table.md"
rm -f "$OUT/extra.json"
