-- docs/adr/0113: interest on deposit products. Each day's accrual of an account is a row of interest_accruals, kept
-- to 12 decimal places (never rounded to the currency); each posting period's end is a row of interest_postings, keyed
-- by (account, period end) so that a rerun never posts twice, with the amount posted (rounded half-even to the
-- currency's minor unit) and the residue carried into the next period. The interest is paid from the environment's
-- interest-expense account of the currency, a row of ledger_internal_accounts: an internal account like the settlement
-- account (ledger_settlement_accounts, left as it is: the previous release keeps upserting it by environment and
-- currency, docs/adr/0044), so that per environment and currency every balance, both internal ones included, still
-- sums to zero.

CREATE TABLE "ledger_internal_accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment" VARCHAR(64) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "purpose" VARCHAR(16) NOT NULL,
    "amount" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "pending_debits" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "pending_credits" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_internal_accounts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ledger_internal_accounts_purpose_check" CHECK ("purpose" IN ('INTEREST_EXPENSE'))
);
CREATE UNIQUE INDEX "ledger_internal_accounts_environment_currency_purpose_key"
    ON "ledger_internal_accounts" ("environment", "currency", "purpose");

CREATE TABLE "interest_accruals" (
    "account_id" UUID NOT NULL,
    "business_date" DATE NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    -- The balance the day's interest is on: the posted balance at the day's end, plus the interest accrued and not
    -- paid when it compounds daily (docs/products.md).
    "balance" DECIMAL(30,12) NOT NULL,
    "annual_rate" DECIMAL(7,6) NOT NULL,
    -- 365, 360 or 366: the day count's denominator for this date.
    "days_in_year" INTEGER NOT NULL,
    "amount" DECIMAL(30,12) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "interest_accruals_pkey" PRIMARY KEY ("account_id", "business_date"),
    CONSTRAINT "interest_accruals_days_in_year_check" CHECK ("days_in_year" IN (360, 365, 366))
);

CREATE TABLE "interest_postings" (
    "account_id" UUID NOT NULL,
    -- The posting period's last date (a month's or a quarter's), or the date an account was closed on.
    "period_end" DATE NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    -- The residue carried in plus the period's accruals.
    "accrued" DECIMAL(30,12) NOT NULL,
    -- Rounded half-even to the currency's minor unit; 0 when that rounds to nothing or the ledger refused the credit.
    "posted" DECIMAL(24,6) NOT NULL,
    -- accrued - posted: carried into the next period.
    "residue" DECIMAL(30,12) NOT NULL,
    -- POSTED (a transaction, or nothing to post), DEFERRED (the ledger refused the credit: a frozen account, credits
    -- blocked; the whole amount is carried), CLOSING (posted as its account closed).
    "outcome" VARCHAR(8) NOT NULL,
    -- The customer account's side of the posting (its transaction id); NULL when nothing was posted.
    "transaction_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "interest_postings_pkey" PRIMARY KEY ("account_id", "period_end"),
    CONSTRAINT "interest_postings_outcome_check" CHECK ("outcome" IN ('POSTED', 'DEFERRED', 'CLOSING')),
    CONSTRAINT "interest_postings_residue_check" CHECK ("residue" = "accrued" - "posted")
);
-- The accrual step tells an interest credit from the account's other entries (its balance at a day's end).
CREATE UNIQUE INDEX "interest_postings_transaction_id_key" ON "interest_postings" ("transaction_id");
