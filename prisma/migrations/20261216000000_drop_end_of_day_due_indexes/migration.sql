-- docs/dormancy-and-escheatment.md: the two indexes of migration 20261214000000 covered accounts.last_activity_at,
-- which every client posting changes, so every posting's account update stopped being a HOT update (a new entry in
-- every index of accounts, measured: 0 of 100 updates HOT with them, 100 of 100 without). The end of day's look-ups
-- bound the owner-state look-ups by a test on the account's own row instead; a scan once a day is cheaper than an
-- index write on every payment.
DROP INDEX IF EXISTS "accounts_dormancy_due_idx";
DROP INDEX IF EXISTS "accounts_escheatment_due_idx";
