-- The last CONTRACT step of 20261130000000_events_numbered_by_rounds (issue 16). Since
-- 20261201000000_events_numbers_not_stored no release writes or reads `events.sequence`: numbers live in
-- event_rounds (src/db/event-rounds.ts). The release that still wrote the column (the expand step's) is gone
-- from any fleet this migration runs under, so the column, and the trigger that let it be written once, go.
--
-- The row trigger compared every column of the old and new row, a WHEN clause PostgreSQL copies with the
-- table's trigger list into every statement that writes `events`, inserts included. An event is never
-- updated now, so a statement-level trigger refuses any UPDATE instead: same message, nothing to copy or
-- evaluate per row. The customer creation's statement went from 774 k to 766 k CPU instructions (callgrind,
-- docs/performance.md, issue 16). DELETE stays allowed (retention, src/db/event.store.ts), and so does
-- TRUNCATE (tests).
--
-- Locks: DROP TRIGGER and DROP COLUMN take ACCESS EXCLUSIVE on `events` for a catalog change only (no
-- rewrite: the column's space is reclaimed as rows are deleted by retention); the migration runner retries
-- when the lock waits longer than MIGRATION_LOCK_TIMEOUT_MS.
DROP TRIGGER "events_immutable" ON "events";
DROP FUNCTION "events_guard"();
ALTER TABLE "events" DROP COLUMN "sequence";

CREATE FUNCTION "events_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events: an event never changes' USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "events_immutable"
    BEFORE UPDATE ON "events"
    FOR EACH STATEMENT EXECUTE FUNCTION "events_refuse_update"();
