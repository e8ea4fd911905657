#!/usr/bin/env bash
# What one GET costs, against a 404 of the same server: GET /review/{id}, GET /albums/{id}
# on 2,000 existing albums (random IDs, wrk/get-ids.lua) and an unknown path, each for SECONDS at
# CONNECTIONS; per request the database transactions (pg_stat_database: xact_commit + xact_rollback
# of the bench database; every statement outside a transaction block is one), the server's CPU and
# PostgreSQL's (all processes of the postgres user: it includes whatever else uses it meanwhile),
# from /proc. A transaction per GET above 1 would be transaction control or a pool's validation.
#
#   bench/read-cost.sh [SECONDS=12] [CONNECTIONS=64] [VAR=value ...]
# VAR=value pairs go to the server (e.g. ALBUMSTORE_DB_POOL_SIZE=16). Prints one line per path and
# appends them to $RESULTS/${READ_COST_NAME:-reads}/read-cost.csv.
BENCH_DB="${BENCH_DB:-albumstore_reads}"
source "$(dirname "$0")/lib.sh"
SECS="${1:-12}"; CONNS="${2:-64}"; shift $(($# < 2 ? $# : 2))
OUT="$RESULTS/${READ_COST_NAME:-reads}"; mkdir -p "$OUT"
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 2; }
ensure_database >/dev/null 2>&1
psql_bench -c "INSERT INTO albums (album_id, artist, title, year, image, image_size)
  SELECT 'rd' || g, 'artist ' || g, 'title ' || g, '1977', '\\x89504e47', 4 FROM generate_series(1, 2000) g ON CONFLICT DO NOTHING;
  INSERT INTO album_reviews (album_id, likes, dislikes) SELECT 'rd' || g, g, g / 2 FROM generate_series(1, 2000) g ON CONFLICT DO NOTHING;"
q=$(new_queue read-cost); p=$(free_port)
start_server read-cost-server "$q" "$p" "$@"
base="http://127.0.0.1:$p/albumstore"

xacts() { psql_bench -c "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"; }
pg_cpu_s() {
  local pid t=0
  for pid in $(pgrep -u postgres); do t=$(awk -v a="$t" -v b="$(cpu_s "$pid" 2>/dev/null || echo 0)" 'BEGIN { print a + b }'); done
  echo "$t"
}

for path in review albums nothing; do run_wrk "$CONNS" 5 "$base/$path/" get-ids >/dev/null; done # warm-up
[[ -f "$OUT/read-cost.csv" ]] || echo "path,conns,seconds,rps,p50_ms,p99_ms,requests,xacts_per_request,server_us,postgres_us,load1,server_env" >"$OUT/read-cost.csv"
# A backend reports its counts to pg_stat_database at most once a second while busy, and within
# 10 s once idle: each count is read after the pool's connections have been idle that long.
sleep 11
for path in review albums nothing; do
  load1=$(cut -d' ' -f1 /proc/loadavg)
  x0=$(xacts); s0=$(cpu_s "$SERVER_PID"); g0=$(pg_cpu_s)
  read -r rps p50 p99 _ <<<"$(run_wrk "$CONNS" "$SECS" "$base/$path/" get-ids)"
  requests=$(awk '/requests in/{print $1}' "$WORK/wrk-last.txt")
  s1=$(cpu_s "$SERVER_PID"); g1=$(pg_cpu_s); sleep 11; x1=$(xacts)
  [[ "$path" == nothing ]] && rps=$(awk '/Requests\/sec/{print $2}' "$WORK/wrk-last.txt")
  python3 - "$path" "$CONNS" "$SECS" "$rps" "$p50" "$p99" "$requests" "$x0" "$x1" "$s0" "$s1" "$g0" "$g1" "$load1" "$*" <<'PY' | tee -a "$OUT/read-cost.csv"
import sys
path, conns, secs, rps, p50, p99, n, x0, x1, s0, s1, g0, g1, load1, env = sys.argv[1:16]
n = int(n)
print(",".join([path, conns, secs, rps, p50, p99, str(n), f"{(int(x1) - int(x0)) / n:.3f}",
                f"{(float(s1) - float(s0)) * 1e6 / n:.1f}", f"{(float(g1) - float(g0)) * 1e6 / n:.1f}", load1, env]))
PY
done
stop_pid "$SERVER_PID"
