#!/usr/bin/env bash
# JFR profile of the server under wrk POST /review (or any wrk script): top frames of the samples.
#   bench/profile-server.sh [SECONDS=20] [CONNECTIONS=256] [SCRIPT=post-review] [VAR=value ...]
source "$(dirname "$0")/lib.sh"
SECS="${1:-20}"; CONNS="${2:-256}"; SCRIPT="${3:-post-review}"; shift $(($# < 3 ? $# : 3))
require_jars; ensure_database
q=$(new_queue profile); p=$(free_port)
JFR="$WORK/server-profile.jfr"
JAVA_OPTS_SERVICE="$JAVA_OPTS_SERVICE -XX:StartFlightRecording=filename=$JFR,settings=profile,dumponexit=true"
start_server profile-server "$q" "$p" "$@"
url="http://127.0.0.1:$p/albumstore"; [[ "$SCRIPT" == post-review ]] || url="$url/bench/noop"
run_wrk "$CONNS" 10 "$url" "$SCRIPT" >/dev/null
run_wrk "$CONNS" "$SECS" "$url" "$SCRIPT"
stop_pid "$SERVER_PID"
python3 "$BENCH_DIR/jfr-top.py" "$JFR"
