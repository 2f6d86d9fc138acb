-- docs/adr/0115: the monthly maintenance fee of deposit products. On each month's last business date the end of day
-- assesses every open account on a product with a fee once: a row of maintenance_fee_assessments, keyed by (account,
-- month) so that a rerun, a resumed day or a second instance never assesses twice, with the month's minimum daily
-- balance, whether the fee was waived, what was charged and what did not fit within the overdraft limit (uncollected).
-- The fee is income of the bank: the environment's FEE_INCOME account of the currency, a new purpose of
-- ledger_internal_accounts (docs/adr/0113), so that per environment and currency every balance still sums to zero.

ALTER TABLE "ledger_internal_accounts" DROP CONSTRAINT "ledger_internal_accounts_purpose_check";
ALTER TABLE "ledger_internal_accounts" ADD CONSTRAINT "ledger_internal_accounts_purpose_check"
    CHECK ("purpose" IN ('INTEREST_EXPENSE', 'FEE_INCOME'));

-- When the account was opened, by its environment's clock (created_at is the machine's time; a sandbox's clock runs
-- ahead of it): the first day of its first month's minimum daily balance. Set by the trigger below, so no writer of
-- accounts (the previous release's included) needs to know it; NULL for accounts opened before this migration, whose
-- opening is read as created_at moved by the environment's offset now (the dormancy migration's estimate). No index:
-- a posting's update of an account stays HOT.
ALTER TABLE "accounts" ADD COLUMN "opened_at" TIMESTAMPTZ(3);

CREATE FUNCTION "accounts_opened_at"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW."opened_at" := "env_now"(NEW."environment");
    RETURN NEW;
END;
$$;
CREATE TRIGGER "accounts_opened_at"
    BEFORE INSERT ON "accounts"
    FOR EACH ROW EXECUTE FUNCTION "accounts_opened_at"();

CREATE TABLE "maintenance_fee_assessments" (
    "account_id" UUID NOT NULL,
    -- The month's first date (the assessment is made on its last).
    "month" DATE NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    -- The lowest end-of-day posted balance of the days of the month the account existed.
    "minimum_daily_balance" DECIMAL(24,6) NOT NULL,
    -- The product's fee and waiver threshold (NULL: never waived) as they were applied.
    "fee" DECIMAL(24,6) NOT NULL,
    "waived_at" DECIMAL(24,6),
    -- WAIVED (nothing charged), CHARGED (all or part of the fee posted), UNCOLLECTED (nothing could be posted: no room
    -- within the overdraft limit, or the ledger refused the debit: a frozen account, debits blocked).
    "outcome" VARCHAR(12) NOT NULL,
    "charged" DECIMAL(24,6) NOT NULL,
    "uncollected" DECIMAL(24,6) NOT NULL,
    -- The customer account's side of the posting (its transaction id); NULL when nothing was posted.
    "transaction_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "maintenance_fee_assessments_pkey" PRIMARY KEY ("account_id", "month"),
    CONSTRAINT "maintenance_fee_assessments_outcome_check" CHECK ("outcome" IN ('WAIVED', 'CHARGED', 'UNCOLLECTED')),
    CONSTRAINT "maintenance_fee_assessments_amounts_check" CHECK (
        "charged" >= 0 AND "uncollected" >= 0
        AND CASE "outcome" WHEN 'WAIVED' THEN "charged" = 0 AND "uncollected" = 0 AND "transaction_id" IS NULL
                           WHEN 'CHARGED' THEN "charged" > 0 AND "charged" + "uncollected" = "fee" AND "transaction_id" IS NOT NULL
                           ELSE "charged" = 0 AND "uncollected" = "fee" AND "transaction_id" IS NULL END)
);
-- The minimum daily balance tells a fee debit from the account's other entries (it counts on its month's last day).
CREATE UNIQUE INDEX "maintenance_fee_assessments_transaction_id_key" ON "maintenance_fee_assessments" ("transaction_id");
