-- Which fields a customer's or an account's write changed, kept with its event, so a reader without the
-- record's read scope is told what changed instead of the values (docs/adr/0002-events-respect-read-scopes.md).
-- Expand-safe: a constant default adds the column without rewriting the table, and the previous release,
-- which does not name the column, inserts the empty list. No planner statistics: no query filters on it.
ALTER TABLE "events" ADD COLUMN "changed_fields" TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE "events" ALTER COLUMN "changed_fields" SET STATISTICS 0;
