-- Managed API tokens that expire, and optional per-token limits on the money a token may move (issue 28,
-- least privilege). Every column is nullable without a default, so adding them rewrites nothing and the
-- migration only takes its lock for an instant beside a serving fleet: existing tokens never expire and are
-- not limited, as before.
ALTER TABLE "api_tokens"
    ADD COLUMN "expires_at" TIMESTAMPTZ(3),
    -- The largest amount of one posting, in any currency; NULL: no maximum.
    ADD COLUMN "max_amount" DECIMAL(24,6),
    -- {"USD": "1000.00", …}: the most the token may post per UTC day in each listed currency; NULL: none.
    ADD COLUMN "daily_limits" JSONB;

-- What each limited principal has posted per UTC day and currency. The posting statement locks its row
-- (FOR UPDATE) before deciding, so concurrent postings of one token queue on it and can never exceed the
-- limit together (src/db/ledger.store.ts). Rows of past days are no longer read.
CREATE TABLE "api_token_daily_totals" (
    "principal_id" VARCHAR(300) NOT NULL,
    "day" DATE NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "total" DECIMAL(24,6) NOT NULL DEFAULT 0,

    CONSTRAINT "api_token_daily_totals_pkey" PRIMARY KEY ("principal_id", "day", "currency")
);
