#!/usr/bin/env bash
# Shared helpers of the bench/ experiment scripts (sourced, not run). Everything is loopback-only,
# every wait is bounded, and every process started here is stopped by the EXIT trap.
set -euo pipefail

# A script's usage is its header comment, from the line after the shebang to the first line that
# is not a comment. `--help` or `-h` as its first argument prints it and exits 0 before anything
# is created or started (BenchScriptsTest runs every script so).
print_usage() { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#$//p;s/^# //p}' "$1"; }
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then
  print_usage "$0"
  exit 0
fi

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$BENCH_DIR/.." && pwd)"
RESULTS="${RESULTS:-$REPO/results}"
WORK="$BENCH_DIR/target/work"
SERVER_JAR="${SERVER_JAR:-$REPO/server/target/albumstore-server.jar}"
CONSUMER_JAR="${CONSUMER_JAR:-$REPO/consumer/target/albumstore-consumer.jar}"
CLIENT_JAR="${CLIENT_JAR:-$REPO/client/target/client.jar}"
PERFTEST_DIR="$BENCH_DIR/target/perf-test"
LOCAL_JAR="${LOCAL_JAR:-$REPO/local/target/albumstore-local.jar}"

BENCH_DB="${BENCH_DB:-albumstore_bench}"
PG_HOST=127.0.0.1
PG_PORT=5432
JDBC_URL="jdbc:postgresql://$PG_HOST:$PG_PORT/$BENCH_DB"
AMQP_URI="amqp://guest:guest@127.0.0.1:5672/%2F"
RMQ_API="http://127.0.0.1:15672"
RMQ_AUTH="guest:guest"
# Same JVM flags for every service JVM of every experiment (a fixed heap keeps runs comparable).
JAVA_OPTS_SERVICE="${JAVA_OPTS_SERVICE:--Xms512m -Xmx512m -XX:+UseParallelGC}"

# The consumer's Prometheus endpoint binds a fixed port (9091) that other jobs may hold: off, except
# where start_consumer turns it on for the client's per-tier table (CONSUMER_METRICS_PORT).
export ALBUMSTORE_METRICS_PORT=-1

mkdir -p "$WORK"
BENCH_PIDS=()

log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

cleanup() {
  local pid q
  for pid in "${BENCH_PIDS[@]:-}"; do
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || true
  done
  for pid in "${BENCH_PIDS[@]:-}"; do
    [[ -n "$pid" ]] && timeout 20 tail --pid="$pid" -f /dev/null 2>/dev/null || true
  done
  if [[ -f "$WORK/queues.$$" ]]; then
    while read -r q; do delete_topology "$q"; done <"$WORK/queues.$$"
    rm -f "$WORK/queues.$$"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

require_jars() {
  local j
  for j in "$SERVER_JAR" "$CONSUMER_JAR" "$CLIENT_JAR"; do
    [[ -f "$j" ]] || { echo "missing $j: run 'mvn -B -pl server,consumer,client package -DskipTests'" >&2; exit 2; }
  done
}

require_local_jar() {
  [[ -f "$LOCAL_JAR" ]] || { echo "missing $LOCAL_JAR: run 'mvn -B -pl local -am package -DskipTests'" >&2; exit 2; }
}

# cross "A B" "X Y": every pair of the two space-separated lists, one "a x" per line, the first
# list's order outermost (the cells of a design, for `mapfile -t cells < <(cross ...)`).
cross() {
  local a b
  for a in $1; do for b in $2; do echo "$a $b"; done; done
}

# What `albumstore-local.jar --topology cluster` needs: the local jar and HAProxy (RabbitMQ: the
# launcher says so itself).
require_cluster_launcher() {
  require_local_jar
  command -v haproxy >/dev/null || [[ -x /usr/sbin/haproxy ]] || { echo "needs haproxy: apt-get install haproxy" >&2; exit 2; }
}

# start_cluster N [management]: a RabbitMQ cluster of N nodes, of the release ALBUMSTORE_RABBITMQ
# chooses (embedded/engines.sh), in the background (RabbitClusterMain of the local jar: the same
# code as the tests and the cluster stack, never the machine's own node); prints the PIDs to stop
# (the launcher, and the sleep that holds its stdin open), the nodes' addresses and, with
# `management`, the first node's management API URL. Called in $(...): the caller records the PIDs
# for the EXIT trap.
start_cluster() {
  local n="$1" dir="$WORK/${NAME:-bench}-cluster$1-$$-$RANDOM" line mgmt=""
  rm -rf "$dir"; mkdir -p "$dir"
  hold_launcher "$dir" org.albumstore.embedded.cluster.RabbitClusterMain "$n" "$dir/nodes" ${2:+"$2"}
  line=$(await_line "$dir" '^addresses ' 240)
  [[ -n "${2:-}" ]] && mgmt=$(grep -m1 '^management ' "$dir/out" | cut -d' ' -f2)
  echo "$LAUNCHED ${line#addresses } $mgmt"
}

# start_postgres: a PostgreSQL primary alone, of the release ALBUMSTORE_POSTGRESQL chooses, with
# the settings the tests use (PostgresMain of the local jar: database albumstore, user postgres,
# trust); prints the PIDs to stop and its port, as start_cluster.
start_postgres() {
  local dir="$WORK/${NAME:-bench}-postgres-$$-$RANDOM" line
  rm -rf "$dir"; mkdir -p "$dir"
  hold_launcher "$dir" org.albumstore.embedded.cluster.PostgresMain
  line=$(await_line "$dir" '^port ' 120)
  echo "$LAUNCHED ${line#port }"
}

# hold_launcher DIR CLASS ARGS...: runs a main of the local jar in the background with its stdin
# held open by a sleep (its end stops the launched services); sets LAUNCHED="launcher_pid holder_pid".
hold_launcher() {
  local dir="$1" fifo="$1/stdin" holder; shift
  mkfifo "$fifo"
  sleep 100000 >"$fifo" &
  holder=$!
  java -Xmx128m -cp "$LOCAL_JAR" "$@" <"$fifo" >"$dir/out" 2>"$dir/log" &
  LAUNCHED="$! $holder"
}

# await_line DIR PATTERN SECONDS: the launcher's first output line matching PATTERN, bounded; exits
# the script (after stopping the launcher) when it dies or the time runs out.
await_line() {
  local dir="$1" pattern="$2" line pid holder
  read -r pid holder <<<"$LAUNCHED"
  for _ in $(seq 1 $(($3 * 2))); do
    line=$(grep -m1 "$pattern" "$dir/out" 2>/dev/null || true)
    [[ -n "$line" ]] && { echo "$line"; return 0; }
    kill -0 "$pid" 2>/dev/null || { tail -20 "$dir/log" >&2; kill "$holder"; exit 3; }
    sleep 0.5
  done
  echo "no '$pattern' from the launcher in $dir within $3 s" >&2; kill "$pid" "$holder"; exit 3
}

require_perftest() {
  if ! ls "$PERFTEST_DIR"/perf-test-*.jar >/dev/null 2>&1; then
    log "fetching rabbitmq-perf-test into $PERFTEST_DIR"
    mvn -B -q -f "$BENCH_DIR/perftest-pom.xml" dependency:copy-dependencies >&2
  fi
}

# The machine, for every summary: cores, load, memory, versions.
machine_json() {
  python3 - <<PY
import json, os, platform, subprocess
def sh(c):
    try: return subprocess.run(c, shell=True, capture_output=True, text=True, timeout=10).stdout.strip()
    except Exception as e: return str(e)
print(json.dumps({
  "cores": os.cpu_count(), "loadavg_at_start": os.getloadavg(),
  "cpu": sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip(),
  "mem_total_mb": int(sh("free -m | awk '/Mem:/{print \$2}'") or 0),
  "kernel": platform.release(), "java": sh("java -version 2>&1 | head -1"),
  "rabbitmq": sh("curl -s -u $RMQ_AUTH $RMQ_API/api/overview | jq -r .rabbitmq_version"),
  "postgres": sh("psql -h $PG_HOST -p $PG_PORT -U postgres -Atc 'show server_version'"),
  "note": "2 cores shared with RabbitMQ, PostgreSQL, the server, the consumer, the load tool and other jobs",
}))
PY
}

# readme_stub DIR COMMAND WHAT: a README.md for a results folder that has none yet (a measured
# folder's README, with its reading of the figures, is never overwritten).
readme_stub() {
  local dir="$1" command="$2" what="$3"
  [[ -f "$dir/README.md" ]] && return 0
  cat >"$dir/README.md" <<EOF
# results/$(basename "$dir"): $what

Command (from the repository root): \`$command\`, run $(date -u +%Y-%m-%d) on $(nproc) cores, load
average $(cut -d' ' -f1-3 /proc/loadavg) at the end. Figures: [table.md](table.md),
[chart.svg](chart.svg), one row per run in [data.csv](data.csv); medians, intervals, the machine
and the setup in [summary.json](summary.json). What the figures show: not written yet.
EOF
}

# noop_album_id URL: exports BENCH_ALBUM_ID, the albumID the do-nothing endpoint at URL answers
# (the server's NoopServlet.ALBUM_ID), which wrk's and Gatling's request mixes put in their review
# paths, as the client does with the ID it is given.
noop_album_id() {
  BENCH_ALBUM_ID=$(curl -s -m 5 -X POST "$1/albums" | python3 -c 'import json, sys; print(json.load(sys.stdin)["albumID"])')
  export BENCH_ALBUM_ID
}

# CPU seconds (user + system) that process $1 has used so far; fails once it has exited.
CLK_TCK=$(getconf CLK_TCK)
cpu_s() { awk -v hz="$CLK_TCK" '{ s = $0; sub(/^.*\) /, "", s); split(s, f, " "); print (f[12] + f[13]) / hz }' "/proc/$1/stat"; }

# CPU seconds used so far, "postgres rabbitmq machine": every PostgreSQL process (and what each
# reaped: the postmaster keeps the exited backends' time), RabbitMQ's beam.smp (and what it reaped),
# and the busy time of every core (/proc/stat). Differences over a run give each tier's share.
tier_cpu_s() {
  python3 - "$CLK_TCK" <<'PY'
import os, sys
hz = float(sys.argv[1])
tiers = {"postgres": 0, "beam.smp": 0}
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        s = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    comm, f = s[s.index("(") + 1:s.rindex(")")], s[s.rindex(")") + 2:].split()
    if comm in tiers:
        tiers[comm] += sum(int(x) for x in f[11:15])  # utime stime cutime cstime
cpu = [int(x) for x in open("/proc/stat").readline().split()[1:9]]
busy = sum(cpu) - cpu[3] - cpu[4]  # all but idle and iowait
print(tiers["postgres"] / hz, tiers["beam.smp"] / hz, busy / hz)
PY
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

psql_bench() { psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -d "$BENCH_DB" -v ON_ERROR_STOP=1 -Atq "$@"; }

# Creates the bench database if needed and applies schema.sql (same file the consumer applies).
ensure_database() {
  if [[ "$(psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -Atc "select 1 from pg_database where datname='$BENCH_DB'")" != 1 ]]; then
    psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -qc "create database $BENCH_DB" >&2
  fi
  psql_bench -f "$REPO/schema.sql" >/dev/null
}

# Empties the tables, so each experiment starts from the same (empty) database.
truncate_tables() { psql_bench -c "truncate albums, album_reviews, applied_reviews" >/dev/null; }

# Prints a fresh queue name and records it for deletion at exit (a file, since callers use $(...)).
new_queue() { local q="bench.$1.$$.$RANDOM"; echo "$q" >>"$WORK/queues.$$"; echo "$q"; }

delete_topology() {
  local q="$1" x
  for x in "queues/%2F/$q" "queues/%2F/$q.dlq" "exchanges/%2F/$q" "exchanges/%2F/$q.dlx"; do
    curl -s -o /dev/null -u "$RMQ_AUTH" -X DELETE "$RMQ_API/api/$x" || true
  done
}

# Ready + unacked messages of a queue (management API; figures lag up to 5 s), or -1.
queue_depth() {
  curl -s -m 5 -u "$RMQ_AUTH" "$RMQ_API/api/queues/%2F/$1?columns=messages" | jq -r '.messages // -1' 2>/dev/null || echo -1
}

# Waits (bounded) until GET url answers 200.
wait_http() {
  local url="$1" limit="${2:-60}" i
  for ((i = 0; i < limit * 4; i++)); do
    if curl -s -o /dev/null -m 2 -w '%{http_code}' "$url" | grep -q 200; then return 0; fi
    sleep 0.25
  done
  echo "timed out waiting for $url" >&2; return 1
}

# start_server NAME QUEUE PORT [VAR=value ...]: the server jar with the bench endpoint on
# (SERVER_EXTRA_JAVA_OPTS: more JVM flags for the server only, e.g. a JFR recording).
# Sets SERVER_PID.
start_server() {
  local name="$1" queue="$2" port="$3"; shift 3
  env ALBUMSTORE_BENCH_ENDPOINTS=true ALBUMSTORE_QUEUE="$queue" ALBUMSTORE_HTTP_PORT="$port" \
    ALBUMSTORE_JDBC_URL="$JDBC_URL" ALBUMSTORE_AMQP_URI="$AMQP_URI" "$@" \
    java $JAVA_OPTS_SERVICE ${SERVER_EXTRA_JAVA_OPTS:-} -jar "$SERVER_JAR" >"$WORK/$name.log" 2>&1 &
  SERVER_PID=$!
  BENCH_PIDS+=("$SERVER_PID")
  wait_http "http://127.0.0.1:$port/albumstore/health" 90
}

# start_consumer NAME QUEUE [flags ...]. Sets CONSUMER_PID.
# Starts the consumer with its metrics on CONSUMER_METRICS_PORT (default 9091) and waits for them,
# so that the client's first scrape (the start of its per-tier figures) finds the consumer up.
start_consumer() {
  local name="$1" queue="$2"; shift 2
  java $JAVA_OPTS_SERVICE -jar "$CONSUMER_JAR" --queue "$queue" --jdbc-url "$JDBC_URL" \
    --amqp-uri "$AMQP_URI" --stats-interval 1 --metrics-port "${CONSUMER_METRICS_PORT:-9091}" \
    "$@" >"$WORK/$name.log" 2>&1 &
  CONSUMER_PID=$!
  BENCH_PIDS+=("$CONSUMER_PID")
  wait_http "http://127.0.0.1:${CONSUMER_METRICS_PORT:-9091}/metrics" 90
}

stop_pid() {
  local pid="$1"
  kill "$pid" 2>/dev/null || true
  timeout 30 tail --pid="$pid" -f /dev/null 2>/dev/null || kill -9 "$pid" 2>/dev/null || true
}

# Runs wrk for DURATION seconds; prints "rps p50_ms p99_ms max_ms non2xx errors" (bench/wrk-report.lua).
run_wrk() {
  local conns="$1" duration="$2" url="$3" script="${4:-}"
  # wrk needs at least one connection per thread: one connection, one thread.
  local args=(-t "$((conns < 2 ? 1 : 2))" -c "$conns" -d "${duration}s" --latency --timeout 10s -s "$BENCH_DIR/wrk/${script:-get}.lua" "$url")
  BENCH_WRK_DIR="$BENCH_DIR/wrk" wrk "${args[@]}" 2>&1 | tee "$WORK/wrk-last.txt" | awk '/^BENCH /{ $1=""; print substr($0,2) }'
}

# scrape_while PID SECONDS URL...: GETs each URL every SECONDS while PID lives (a browser polls the
# live page's state every second, the shipped Prometheus scrapes every 15 s), each over a kept-alive
# connection, from one process: what is measured is the client serving them, not a process started
# per poll.
scrape_while() {
  python3 - "$@" <<'PY'
import http.client, sys, time, urllib.parse
pid, every, urls = sys.argv[1], float(sys.argv[2]), [urllib.parse.urlsplit(u) for u in sys.argv[3:]]
conns = [None] * len(urls)
def alive():
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
while alive():
    for i, u in enumerate(urls):
        try:
            conns[i] = conns[i] or http.client.HTTPConnection(u.hostname, u.port, timeout=2)
            conns[i].request("GET", u.path)
            conns[i].getresponse().read()
        except (OSError, http.client.HTTPException):
            conns[i] = None
    time.sleep(every)
PY
}
