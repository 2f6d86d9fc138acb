-- CONTRACT step of 20261130000000_events_numbered_by_rounds (issue 16: the outbox's cost). Since that
-- release no statement reads events by `sequence`, and from this one no sequencer writes it: an event is
-- inserted once and never updated. What only the releases before the rounds read goes:
--
-- * the index by (environment, sequence), which their reads walked;
-- * the partial index by txid of unnumbered events, their sequencer's work list (an entry per insert,
--   dead at numbering, for vacuum to remove).
--
-- The previous release (the one this migration runs under during a rollout) reads by rounds and finds its
-- events through `events_environment_txid_id_idx`; its sequencer still writes `sequence`, by primary key,
-- which the column and the immutability trigger keep allowing until a later contract step drops them.
-- The ACCESS EXCLUSIVE locks are held only for the drops; the migration runner retries a drop that waits
-- for its lock longer than MIGRATION_LOCK_TIMEOUT_MS.
DROP INDEX "events_environment_sequence_key";
DROP INDEX "events_txid_idx";

-- Events are no longer updated: pages written from now on are filled (the half kept free for the numbered
-- version, 20261126000000, only made the table larger). No rewrite; SHARE UPDATE EXCLUSIVE lock.
ALTER TABLE "events" SET (fillfactor = 100);

-- Two sequencers cannot append rounds from the same head: the sequencer takes its lock inside its one
-- statement, whose snapshot may predate the previous holder's commit; its round would then start at the same
-- number as the one it missed, and this index turns it into nothing (src/db/event.store.ts). Empty rounds
-- (first_sequence past last_sequence: an environment's pruned head) are left out.
CREATE UNIQUE INDEX "event_rounds_environment_first_sequence_key" ON "event_rounds"("environment", "first_sequence")
    WHERE "first_sequence" <= "last_sequence";

-- Planner statistics only for the columns a query of events filters, joins or sorts on (id, environment,
-- type, txid, occurred_at), as 20261129000000_statistics_only_where_queried did for the other tables: the
-- numbers nobody reads any more and the resource columns nobody filters by only made autoanalyze, which runs
-- every time a tenth of the table is new, slower (about 10 µs per event in the benchmark before this).
ALTER TABLE "events"
    ALTER COLUMN "sequence" SET STATISTICS 0,
    ALTER COLUMN "resource_type" SET STATISTICS 0,
    ALTER COLUMN "resource_id" SET STATISTICS 0;
