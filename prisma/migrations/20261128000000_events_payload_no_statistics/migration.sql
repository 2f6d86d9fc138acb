-- No planner statistics for the events' payloads. No query filters, joins or sorts on `payload` (every read
-- goes by environment and sequence, or by id), yet ANALYZE detoasted and summarised 30,000 JSON documents each
-- time autovacuum analysed the table: on the soak's 10 minutes of writes, autoanalyze of `events` grew to 2.1 s
-- per round, on the same cores as the service (docs/reliability.md, "Soak"). The other columns keep their
-- statistics. Expand-safe: SHARE UPDATE EXCLUSIVE, which blocks neither reads nor writes, and no rewrite.
ALTER TABLE "events" ALTER COLUMN "payload" SET STATISTICS 0;
