#!/usr/bin/env bash
# async-profiler CPU profile (itimer, per thread) of the server under wrk, and where its CPU goes by
# thread and stage of the write path (bench/server-cpu-attribution.py): the Tomcat request, the
# async completion's dispatch, the worker hand-off, the publisher's encode / publish / answering,
# GC. JIT compiler threads and the startup (main) are left out of the shares.
#   bench/profile-server-cpu.sh [SECONDS=25] [CONNECTIONS=256] [SCRIPT=post-review-sustained] [VAR=value ...]
# SCRIPT=post-noop profiles the do-nothing POST /bench/noop instead; PROFILE_PATH is appended to
# the base URL, e.g. the reads on bench/reads.sh's 2,000 albums: BENCH_DB=albumstore_reads
# PROFILE_PATH=/review/ bench/profile-server-cpu.sh 15 64 get-ids. Writes
# bench/target/work/server-cpu.collapsed.
source "$(dirname "$0")/lib.sh"
SECS="${1:-25}"; CONNS="${2:-256}"; SCRIPT="${3:-post-review-sustained}"; shift $(($# < 3 ? $# : 3))
ensure_database >/dev/null 2>&1
q=$(new_queue profile-cpu); p=$(free_port)
OUTF="$WORK/server-cpu.collapsed"; rm -f "$OUTF"
AGENT="$("$BENCH_DIR/async-profiler.sh" "$OUTF")"
SERVER_EXTRA_JAVA_OPTS="${SERVER_EXTRA_JAVA_OPTS:-} ${AGENT/,collapsed/,threads,collapsed}" \
  start_server profile-cpu-server "$q" "$p" "$@"
url="http://127.0.0.1:$p/albumstore${PROFILE_PATH:-}"; [[ "$SCRIPT" != post-noop ]] || url="$url/bench/noop"
run_wrk "$CONNS" 8 "$url" "$SCRIPT" >/dev/null # warm-up (its samples are in the profile too)
curl -s -o /dev/null -u "$RMQ_AUTH" -X DELETE "$RMQ_API/api/queues/%2F/$q/contents" || true
run_wrk "$CONNS" "$SECS" "$url" "$SCRIPT"
stop_pid "$SERVER_PID"
python3 "$BENCH_DIR/server-cpu-attribution.py" "$OUTF"
