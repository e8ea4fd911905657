-- Album Store schema. Safe to apply twice, online: every statement is IF NOT EXISTS, and what would
-- lock a table before finding it has nothing to do (CREATE INDEX, ALTER TABLE) first asks the
-- catalog, so applying it again locks nothing.
-- Apply with:  java -jar consumer/target/albumstore-consumer.jar schema   (lock_timeout, retried)
-- or by hand:  psql -h 127.0.0.1 -U postgres -d albumstore -f schema.sql

-- One row per album. album_id is text, not a serial: the server assigns it (a UUID, or one derived
-- from the request's Idempotency-Key) so that a retried POST /albums inserts nothing new.
CREATE TABLE IF NOT EXISTS albums (
    album_id    text        PRIMARY KEY,
    artist      text        NOT NULL,
    title       text        NOT NULL,
    year        text        NOT NULL,
    image       bytea       NOT NULL,
    image_size  integer     NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Like/dislike counters, upserted by the consumer with one aggregated delta per album per batch.
-- No foreign key to albums: the contract lets clients review albums they number themselves
-- (POST /review/like/42), and a review may be applied before its album.
CREATE TABLE IF NOT EXISTS album_reviews (
    album_id  text   PRIMARY KEY,
    likes     bigint NOT NULL DEFAULT 0 CHECK (likes >= 0),
    dislikes  bigint NOT NULL DEFAULT 0 CHECK (dislikes >= 0)
);

-- The exactly-once ledger, written in the same transaction that moves the counters: the event ID
-- of every keyed review applied (its request had an Idempotency-Key: a client retry arrives in
-- another message), and the message ID of every message whose unkeyed reviews were applied (one row
-- for all of them: only a redelivery of that very message can repeat them). A redelivered message
-- or a retried keyed review finds its ID here and changes nothing. Both kinds are UUIDs in one
-- column, so the table is unchanged from before message IDs (nothing to migrate); they cannot
-- collide, as their version bits differ (message IDs are version 7, keyed event IDs version 3).
--
-- Retention: the consumer deletes rows older than ALBUMSTORE_LEDGER_RETENTION (default 7d) in the
-- background (LedgerPruner: small autocommitted batches found by the BRIN index below, paced, one
-- consumer at a time under pg_try_advisory_lock). A duplicate is recognised only inside that window;
-- redeliveries and client retries come within minutes. Why not a table partitioned by applied_at
-- whose old partitions are dropped: a partitioned table's primary key must contain applied_at, and
-- then ON CONFLICT (event_id) could no longer see a duplicate applied at another time.
CREATE TABLE IF NOT EXISTS applied_reviews (
    event_id    uuid        PRIMARY KEY,
    applied_at  timestamptz NOT NULL DEFAULT now()
);
-- BRIN: rows arrive in time order, so the pruning DELETE gets an index that costs almost nothing
-- to maintain on the hot insert path. Once pruning frees space, new rows also land in old pages and
-- the ranges it summarises widen; the DELETE then reads more of a table that retention keeps
-- bounded, in the background, while a b-tree on applied_at would cost every insert.
DO $$
BEGIN
    IF to_regclass('applied_reviews_applied_at') IS NULL THEN
        CREATE INDEX applied_reviews_applied_at ON applied_reviews USING brin (applied_at);
    END IF;
END $$;

-- Expand for message version 3: when a server accepted the album's latest review, kept by
-- consumers that read version 3 (older ones never name it). Nullable without a default, so adding
-- it rewrites no row; its ACCESS EXCLUSIVE lock is held for a catalog change only, and `schema`
-- bounds the wait for it (lock_timeout) so that writers never queue behind it for long.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'album_reviews'::regclass
                   AND attname = 'last_review_at' AND NOT attisdropped) THEN
        ALTER TABLE album_reviews ADD COLUMN last_review_at timestamptz;
    END IF;
END $$;
