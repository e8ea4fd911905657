#!/usr/bin/env bash
# The most transactions/s and rows/s one PostgreSQL applies with the consumer's
# batch shapes, without the consumer: pgbench running, in each transaction, the statements of
# consumer/.../sql/BatchWriter.java (the same INSERT ... ON CONFLICT texts; the rows generated in
# the statement instead of bound as arrays), prepared (-M prepared), one transaction per batch.
#
#   bench/pg-ceiling.sh [WRITES="8 64 512 2048"] [SECONDS=15] [CLIENTS=4] [REPS=1]
#
# WRITES are the writes per transaction (messages per transaction x writes per message, as
# bench/tier-cost.sh measures them). Two shapes:
#   album-reviews: the client's default mix, a quarter of the writes albums (the client's 3,471-byte
#     PNG, decoded from hex, three text columns), three quarters keyed reviews: one ledger row each
#     (applied_reviews) and one counter upsert each (album_reviews, new keys: the upper bound, when
#     no two reviews of one album share a batch);
#   reviews: reviews only, one ledger row and one counter upsert each.
# CLIENTS connections at once, as the consumer's workers. Per run: transactions/s, rows/s,
# writes/s, and PostgreSQL's CPU µs per write (this database's backends and the shared processes,
# /proc). A database of its own (albumstore_pgceiling), emptied before each run. Writes
# results/${PG_CEILING_NAME:-pg-ceiling}/{data.csv,summary.json,table.md}.
BENCH_DB="${BENCH_DB:-albumstore_pgceiling}"
source "$(dirname "$0")/lib.sh"
WRITES="${1:-8 64 512 2048}"; SECS="${2:-15}"; CLIENTS="${3:-4}"; REPS="${4:-1}"
NAME="${PG_CEILING_NAME:-pg-ceiling}"
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
COMMAND="bench/pg-ceiling.sh \"$WRITES\" $SECS $CLIENTS $REPS"
log "$COMMAND"
command -v pgbench >/dev/null || { echo "needs pgbench (postgresql-client)" >&2; exit 2; }
ensure_database
machine_json >"$WORK/$NAME-machine.json"
IMG_HEX=$(od -An -v -tx1 "$REPO/client/src/main/resources/org/albumstore/client/album.png" | tr -d ' \n')
IMG_BYTES=$(stat -c %s "$REPO/client/src/main/resources/org/albumstore/client/album.png")

cat >"$WORK/$NAME-album-reviews.sql" <<'SQL'
\set albums :writes / 4
\set reviews :writes - :albums
BEGIN;
INSERT INTO albums (album_id, artist, title, year, image, image_size) SELECT gen_random_uuid()::text, 'Sex Pistols', 'Never Mind The Bollocks!', '1977', decode(:img::text, 'hex'), :imgbytes::int FROM generate_series(1, :albums::int) ON CONFLICT (album_id) DO NOTHING RETURNING album_id, artist, title, year;
INSERT INTO applied_reviews (event_id) SELECT gen_random_uuid() FROM generate_series(1, :reviews::int) ON CONFLICT (event_id) DO NOTHING RETURNING event_id;
INSERT INTO album_reviews (album_id, likes, dislikes) SELECT gen_random_uuid()::text, 1, 0 FROM generate_series(1, :reviews::int) ON CONFLICT (album_id) DO UPDATE SET likes = album_reviews.likes + EXCLUDED.likes, dislikes = album_reviews.dislikes + EXCLUDED.dislikes RETURNING album_id, likes, dislikes;
COMMIT;
SQL
cat >"$WORK/$NAME-reviews.sql" <<'SQL'
BEGIN;
INSERT INTO applied_reviews (event_id) SELECT gen_random_uuid() FROM generate_series(1, :writes::int) ON CONFLICT (event_id) DO NOTHING RETURNING event_id;
INSERT INTO album_reviews (album_id, likes, dislikes) SELECT gen_random_uuid()::text, 1, 0 FROM generate_series(1, :writes::int) ON CONFLICT (album_id) DO UPDATE SET likes = album_reviews.likes + EXCLUDED.likes, dislikes = album_reviews.dislikes + EXCLUDED.dislikes RETURNING album_id, likes, dislikes;
COMMIT;
SQL

mapfile -t runs < <(cross "album-reviews reviews" "$WRITES")
echo "shape,writes_per_txn,rep,txn_per_s,writes_per_s,rows_per_s,pg_us_per_write,pg_cores,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < ${#runs[@]}; k++)); do
    read -r shape w <<<"${runs[$(((k + rep - 1) % ${#runs[@]}))]}"
    truncate_tables
    psql_bench -c "checkpoint" >/dev/null
    load1=$(cut -d' ' -f1 /proc/loadavg)
    c0=$(python3 "$BENCH_DIR/tier-cost.py" pgcpu "$BENCH_DB")
    logf="$WORK/$NAME-$shape-$w-r$rep.log"
    timeout $((SECS + 120)) pgbench -h "$PG_HOST" -p "$PG_PORT" -U postgres -n -M prepared \
      -c "$CLIENTS" -j 2 -T "$SECS" -D writes="$w" -D img="$IMG_HEX" -D imgbytes="$IMG_BYTES" \
      -f "$WORK/$NAME-$shape.sql" "$BENCH_DB" >"$logf" 2>&1 &
    bench_pid=$!
    BENCH_PIDS+=("$bench_pid")
    # the backends' CPU, sampled while they live (c0: the shared processes and idle backends before)
    c1=$(python3 "$BENCH_DIR/tier-cost.py" pgcpu "$BENCH_DB" "$bench_pid")
    wait "$bench_pid" || { log "pgbench failed: $(tail -3 "$logf")"; continue; }
    tps=$(grep -Eo 'tps = [0-9.]+' "$logf" | head -1 | grep -Eo '[0-9.]+$')
    txns=$(grep -Eo 'number of transactions actually processed: [0-9]+' "$logf" | grep -Eo '[0-9]+$')
    python3 - "$shape" "$w" "$rep" "$tps" "$txns" "$c0" "$c1" "$SECS" "$load1" <<'PY' | tee -a "$OUT/data.csv"
import sys
shape, w, rep, tps, txns, c0, c1, secs, load1 = sys.argv[1:]
w, tps, txns, cpu = int(w), float(tps), int(txns), float(c1) - float(c0)
albums = w // 4 if shape == "album-reviews" else 0
rows = albums + 2 * (w - albums)  # a ledger row and a counter upsert per review
print(f"{shape},{w},{rep},{tps:.1f},{tps * w:.0f},{tps * rows:.0f},{1e6 * cpu / (txns * w):.2f},"
      f"{cpu / float(secs):.2f},{load1}")
PY
  done
done

python3 - "$OUT" "$WORK/$NAME-machine.json" "$COMMAND" <<'PY' | tee "$OUT/table.md"
import csv, json, statistics as st, sys
out, machine, command = sys.argv[1:]
rows = list(csv.DictReader(open(f"{out}/data.csv")))
m = json.load(open(machine)); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
cells = []
print("| shape | writes per transaction | transactions/s | writes/s | rows/s | PostgreSQL CPU µs per write | PostgreSQL cores busy | load1 |")
print("|---|---|---|---|---|---|---|---|")
for key in dict.fromkeys((r["shape"], int(r["writes_per_txn"])) for r in rows):
    rs = [r for r in rows if (r["shape"], int(r["writes_per_txn"])) == key]
    med = lambda k: st.median(float(r[k]) for r in rs)
    c = {"shape": key[0], "writes_per_txn": key[1], "n": len(rs),
         **{k: med(k) for k in ("txn_per_s", "writes_per_s", "rows_per_s", "pg_us_per_write", "pg_cores")},
         "load1": [r["load1"] for r in rs]}
    cells.append(c)
    print(f"| {c['shape']} | {c['writes_per_txn']} | {c['txn_per_s']:.0f} | {c['writes_per_s']:.0f} | {c['rows_per_s']:.0f}"
          f" | {c['pg_us_per_write']:.1f} | {c['pg_cores']:.2f} | {'/'.join(c['load1'])} |")
json.dump({"machine": m, "command": command, "cells": cells,
           "setup": "pgbench -M prepared, the consumer's statements per transaction (rows generated in the "
                    "statement), synchronous_commit as the server has it, tables emptied before each run"},
          open(f"{out}/summary.json", "w"), indent=2)
PY
readme_stub "$OUT" "$COMMAND" "PostgreSQL's transactions/s and rows/s with the consumer's batch shapes"
