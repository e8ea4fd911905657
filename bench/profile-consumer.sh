#!/usr/bin/env bash
# JFR profile of the consumer draining a backlog: top frames of the samples, and the drain rate.
#   bench/profile-consumer.sh [MESSAGES=200000] [consumer flags...]
source "$(dirname "$0")/lib.sh"
MESSAGES="${1:-200000}"; shift || true
require_jars; ensure_database; truncate_tables
q=$(new_queue profile-consumer)
ALBUMSTORE_AMQP_URI="$AMQP_URI" java -cp "$CONSUMER_JAR" "$BENCH_DIR/java/FillQueue.java" "$q" "$MESSAGES" 1000
JFR="$WORK/consumer-profile.jfr"
python3 "$BENCH_DIR/drain-watch.py" "$MESSAGES" 900 "$WORK/profile-consumer.log" "$WORK/profile-consumer-timeline.csv" -- \
  java $JAVA_OPTS_SERVICE -XX:StartFlightRecording=filename=$JFR,settings=profile,dumponexit=true \
  -jar "$CONSUMER_JAR" --queue "$q" --jdbc-url "$JDBC_URL" --amqp-uri "$AMQP_URI" --stats-interval 1 "$@"
python3 "$BENCH_DIR/jfr-top.py" "$JFR" 30
