#!/usr/bin/env bash
# CPU profile of the load client in steady state against the do-nothing endpoint: async-profiler
# (bench/async-profiler.sh fetches it) attached with jcmd after WARM seconds of load, for SECONDS,
# so that neither the JVM's start-up and JIT warm-up nor the end-of-run report are in it; one stack
# per thread (the event loops, the CSV writer, the timeline...). Prints the top frames
# (bench/collapsed-top.py) and keeps the collapsed stacks in bench/target/work/client-profile.collapsed.
#   bench/profile-client.sh [THREADS=256] [WARM=20] [SECONDS=10] [EXTRA CLIENT FLAGS...]
source "$(dirname "$0")/lib.sh"
THREADS="${1:-256}"; WARM="${2:-20}"; SECS="${3:-10}"; shift $(($# < 3 ? $# : 3))
require_jars; ensure_database
FLAG=$("$BENCH_DIR/async-profiler.sh" /dev/null)  # -agentpath:LIB=...: only its LIB is used here
LIB="${FLAG#-agentpath:}"; LIB="${LIB%%=*}"
q=$(new_queue profile-client); p=$(free_port)
start_server profile-client-server "$q" "$p"
OUT="$WORK/client-profile.collapsed"; rm -f "$OUT"
java -Xmx512m -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -jar "$CLIENT_JAR" \
  --url "http://127.0.0.1:$p/albumstore/bench/noop" --threads "$THREADS" --duration $((WARM + SECS + 15)) \
  --no-verify --rmq-api none --amqp-uri none --no-progress --out "$WORK/runs/profile-client" "$@" \
  >"$WORK/profile-client.txt" 2>&1 &
pid=$!
BENCH_PIDS+=("$pid")
# The load has begun when the writers' thread group has started.
for ((i = 0; i < 600; i++)); do
  grep -q "thread group 1/" "$WORK/profile-client.txt" && break
  sleep 0.1
done
sleep "$WARM"
# jcmd's parser splits on '=' unless the agent's options are quoted as one argument.
jcmd "$pid" JVMTI.agent_load "$LIB" "\"start,event=cpu,interval=1ms,threads,file=$OUT\"" >/dev/null
sleep "$SECS"
jcmd "$pid" JVMTI.agent_load "$LIB" "\"stop,file=$OUT,collapsed\"" >/dev/null
wait "$pid" || true
grep -E '^(throughput|all writes)' "$WORK/profile-client.txt"
python3 "$BENCH_DIR/collapsed-top.py" "$OUT" 40
