#!/usr/bin/env bash
# JFR profile of the load client against the do-nothing endpoint: top frames of the samples.
#   bench/profile-client.sh [REQUESTS=100000] [THREADS=256]
source "$(dirname "$0")/lib.sh"
REQUESTS="${1:-100000}"; THREADS="${2:-256}"
require_jars; ensure_database
q=$(new_queue profile-client); p=$(free_port)
start_server profile-client-server "$q" "$p"
JFR="$WORK/client-profile.jfr"
iters=$(((REQUESTS + 4 * THREADS - 1) / (4 * THREADS)))
java -Xmx512m -XX:StartFlightRecording=filename=$JFR,settings=profile,dumponexit=true -jar "$CLIENT_JAR" \
  --url "http://127.0.0.1:$p/albumstore/bench/noop" --threads "$THREADS" --iterations "$iters" --no-verify \
  --rmq-api none --amqp-uri none --no-progress --out "$WORK/runs/profile-client" | grep -E '^(throughput|all writes)'
python3 "$BENCH_DIR/jfr-top.py" "$JFR" 30
