-- The outbox made cheaper (issue 16: the outbox may cost at most 10 % of create-customer throughput).
-- docs/decisions.md, "Events", and docs/performance.md, issue 16, give the measurements.
--
-- An EXPAND step: nothing the previous release reads, writes or plans with is removed. Its inserts, its
-- sequencer (the same statement, lock and counter as this release's), its reads and its retention
-- pruning keep working, with their indexes; old and new instances number the same rows the same way, so
-- a mixed fleet cannot number wrongly. What changes is only how much each event costs to write:
--
-- 1. Indexes hold numbered events only. An event is inserted unnumbered; every query that reads by
--    sequence or prunes by age asks for numbered events (`sequence > $n` is strict, so it implies
--    `sequence IS NOT NULL`; the previous release's prune says `sequence IS NOT NULL` itself), so these
--    indexes can skip the unnumbered version: the insert writes 3 index entries instead of 5 (heap,
--    primary key, the sequencer's txid index).
--    Built before the old ones are dropped: the builds hold a SHARE lock on events (writes, which all
--    append events, wait; reads go on); the drops' ACCESS EXCLUSIVE lock is then held only to the commit.
CREATE UNIQUE INDEX "events_environment_sequence_numbered_key" ON "events"("environment", "sequence") WHERE "sequence" IS NOT NULL;
-- The previous release prunes by age with this index; this release prunes by sequence and does not use
-- it (the CONTRACT migration after this release drops it).
CREATE INDEX "events_occurred_at_numbered_idx" ON "events"("occurred_at") WHERE "sequence" IS NOT NULL;
DROP INDEX "events_environment_sequence_key";
DROP INDEX "events_occurred_at_idx";
ALTER INDEX "events_environment_sequence_numbered_key" RENAME TO "events_environment_sequence_key";
ALTER INDEX "events_occurred_at_numbered_idx" RENAME TO "events_occurred_at_idx";

-- 2. Room on each page for its rows' numbered versions. The sequencer's UPDATE cannot be HOT (`sequence`
--    is indexed), but a new version written on the same page is logged as only the bytes that changed
--    (PostgreSQL's prefix/suffix compression of same-page updates), not the whole row with its payload,
--    and its dead predecessor is reclaimed by page pruning without waiting for vacuum. The sequencer
--    numbers every row of the newest pages at once, so each page keeps half its space for them. Applies
--    to pages written from now on (no rewrite, no lock beyond SHARE UPDATE EXCLUSIVE).
ALTER TABLE "events" SET (fillfactor = 50);

-- 3. The immutability guard, checked in the trigger's WHEN condition (evaluated without calling
--    PL/pgSQL) so the sequencer's permitted update runs no function; any other update still reaches
--    events_guard(), which refuses it as before.
DROP TRIGGER "events_immutable" ON "events";
CREATE TRIGGER "events_immutable"
    BEFORE UPDATE ON "events"
    FOR EACH ROW
    WHEN (OLD."sequence" IS NOT NULL OR NEW."sequence" IS NULL
          OR (NEW."id", NEW."environment", NEW."type", NEW."resource_type", NEW."resource_id", NEW."payload", NEW."occurred_at", NEW."txid")
             IS DISTINCT FROM
             (OLD."id", OLD."environment", OLD."type", OLD."resource_type", OLD."resource_id", OLD."payload", OLD."occurred_at", OLD."txid"))
    EXECUTE FUNCTION "events_guard"();
