-- CONTRACT step of 20261126000000_events_cheaper_numbering: the index by age served only the retention
-- pruning of the releases before it; since then pruning reads each environment's head by sequence. The
-- previous release (the one this migration runs under during a rollout) does not use it, so dropping it is
-- safe there, and every numbered event now writes one index entry fewer (issue 16: the outbox's cost).
-- The ACCESS EXCLUSIVE lock is held only for the drop itself; the migration runner retries it when it waits
-- for the lock longer than MIGRATION_LOCK_TIMEOUT_MS.
DROP INDEX "events_occurred_at_idx";
