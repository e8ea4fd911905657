#!/usr/bin/env bash
# --autoscale under a step load: does the cluster grow with the load, shrink after it, without
# flapping and without losing a write?
#
#   bench/autoscale.sh [STEPS=300,1000,300,300] [STEP_SECONDS=45] [PERIOD=2]
#
# One `java -jar albumstore-local.jar --topology cluster --autoscale` (3 RabbitMQ nodes, quorum
# queue, HAProxy, 1 server and 1 consumer JVM to start, up to MAX_SERVERS / MAX_CONSUMERS), the
# client through the balancer in the open model (--rate-steps STEPS, requests/s, --step-duration
# STEP_SECONDS) with --history, verified. PERIOD is the evaluation period in seconds (AWS: 60 s).
# The second step is the high one. Small instances, as AutoscaleIT's: a broker message per request
# (ALBUMSTORE_PUBLISH_BUNDLE_MAX=1) and a consumer of one channel, 20 messages prefetched, each in
# a transaction of its own (ALBUMSTORE_CONSUMER_CONNECTIONS, _CHANNELS, _BATCH_SIZE = 1, _PREFETCH 20),
# so that one consumer cannot carry the high step; each may be overridden from the environment.
# Environment: SERVER_TARGET (requests/s per server, 400), TARGET_LATENCY (s, 1), MESSAGE_MILLIS
# (one small consumer's ms per message, 2), MAX_SERVERS (3), MAX_CONSUMERS (3), AUTOSCALE_NAME
# (autoscale). Writes results/$AUTOSCALE_NAME/{data.csv, summary.json, chart.svg, run.txt}: one
# row per evaluation period (instances, backlog, requests per server, the client's rate and p99,
# the decisions), the figures (scale-out and scale-in delays, changes, drain time, the verdict).
# Needs rabbitmq-server and haproxy (apt-get install rabbitmq-server haproxy) and the local jar.
source "$(dirname "$0")/lib.sh"
STEPS="${1:-300,1000,300,300}"; STEP_SECONDS="${2:-45}"; PERIOD="${3:-2}"
SERVER_TARGET="${SERVER_TARGET:-400}"; TARGET_LATENCY="${TARGET_LATENCY:-1}"
MESSAGE_MILLIS="${MESSAGE_MILLIS:-2}"; MAX_SERVERS="${MAX_SERVERS:-3}"; MAX_CONSUMERS="${MAX_CONSUMERS:-3}"
NAME="${AUTOSCALE_NAME:-autoscale}"
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
TAG="${NAME//\//-}"
COMMAND="bench/autoscale.sh $STEPS $STEP_SECONDS $PERIOD (SERVER_TARGET=$SERVER_TARGET TARGET_LATENCY=$TARGET_LATENCY MESSAGE_MILLIS=$MESSAGE_MILLIS MAX_SERVERS=$MAX_SERVERS MAX_CONSUMERS=$MAX_CONSUMERS)"
log "$COMMAND"
require_cluster_launcher
ensure_database
machine_json >"$WORK/$TAG-machine.json"

export ALBUMSTORE_PUBLISH_BUNDLE_MAX="${ALBUMSTORE_PUBLISH_BUNDLE_MAX:-1}"
export ALBUMSTORE_CONSUMER_CONNECTIONS="${ALBUMSTORE_CONSUMER_CONNECTIONS:-1}"
export ALBUMSTORE_CONSUMER_CHANNELS="${ALBUMSTORE_CONSUMER_CHANNELS:-1}"
export ALBUMSTORE_PREFETCH="${ALBUMSTORE_PREFETCH:-20}"
export ALBUMSTORE_BATCH_SIZE="${ALBUMSTORE_BATCH_SIZE:-1}"
run_dir="$WORK/$TAG-run"
rm -rf "$run_dir"
code=0
ALBUMSTORE_JDBC_URL="$JDBC_URL" ALBUMSTORE_QUEUE="bench.$TAG.$$" timeout 1800 \
  java -jar "$LOCAL_JAR" --topology cluster --servers 1 --consumers 1 --autoscale \
  --max-servers "$MAX_SERVERS" --max-consumers "$MAX_CONSUMERS" --scale-period "$PERIOD" \
  --server-target "$SERVER_TARGET" --consumer-target-latency "$TARGET_LATENCY" \
  --consumer-message-millis "$MESSAGE_MILLIS" --rate-steps "$STEPS" --step-duration "$STEP_SECONDS" \
  --threads 256 --history --no-progress --drain-timeout 120 --out "$run_dir" >"$OUT/run.txt" 2>"$run_dir.err" || code=$?
log "run ended with exit code $code"
python3 "$BENCH_DIR/autoscale.py" "$run_dir" "$OUT" "$code" "$WORK/$TAG-machine.json" "$COMMAND" \
  "$STEPS" "$STEP_SECONDS" "$PERIOD" "$SERVER_TARGET" "$TARGET_LATENCY" "$MESSAGE_MILLIS"
readme_stub "$OUT" "$COMMAND" "the cluster scaled with a step load (--autoscale)"
