-- Freezes with a reason and an end (issue 30): the details of each flag an account carries, beside the
-- `accounts.flags` array the ledger enforces (which stays the one place a posting reads). The flag statements
-- (src/db/stores/account.store.ts) write the array and its row here in one statement, so each set flag has
-- exactly one row. A new table: nothing existing is rewritten or locked beyond an instant.
CREATE TABLE "account_flags" (
    "account_id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "flag" VARCHAR(32) NOT NULL,
    -- Why it was set (up to 500 characters); NULL: none given.
    "reason" TEXT,
    -- When and by whom (the principal as the audit trail names it); NULL for flags set before this migration.
    "set_at" TIMESTAMPTZ(3),
    "set_by" VARCHAR(300),
    -- When it lifts itself (src/jobs/flag-expiry.ts); NULL: until cleared.
    "until" TIMESTAMPTZ(3),

    CONSTRAINT "account_flags_pkey" PRIMARY KEY ("account_id", "flag"),
    CONSTRAINT "account_flags_account_id_environment_fkey" FOREIGN KEY ("account_id", "environment")
        REFERENCES "accounts"("id", "environment") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The expiry job's scan: the soonest ends first, only flags that have one.
CREATE INDEX "account_flags_until_idx" ON "account_flags"("until") WHERE "until" IS NOT NULL;

-- Flags set before this migration: a row without details, so every set flag has its row.
INSERT INTO "account_flags" ("account_id", "environment", "flag")
SELECT a."id", a."environment", f.flag FROM "accounts" a CROSS JOIN LATERAL unnest(a."flags") AS f(flag)
ON CONFLICT DO NOTHING;
