-- The double-entry ledger (issue 15). docs/decisions.md, "Ledger", explains every choice.
--
-- Balances live on the account row (accounts.amount is the posted balance), so a posting locks and
-- updates the rows it moves money on, and a read of an account reads its balance with no join.
-- Money entering or leaving the bank books against the environment's settlement account of the
-- currency (ledger_settlement_accounts), never listed as a customer account. Per environment and
-- currency, the posted balances of the accounts and the settlement account sum to zero, and so do the
-- pending debits minus the pending credits.

ALTER TABLE "accounts"
    ADD COLUMN "pending_debits" DECIMAL(24,6) NOT NULL DEFAULT 0,
    ADD COLUMN "pending_credits" DECIMAL(24,6) NOT NULL DEFAULT 0,
    ADD COLUMN "overdraft_limit" DECIMAL(24,6) NOT NULL DEFAULT 0,
    ADD COLUMN "entry_count" BIGINT NOT NULL DEFAULT 0,
    ADD CONSTRAINT "accounts_pending_not_negative" CHECK ("pending_debits" >= 0 AND "pending_credits" >= 0),
    ADD CONSTRAINT "accounts_overdraft_limit_not_negative" CHECK ("overdraft_limit" >= 0);

CREATE TABLE "ledger_settlement_accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment" VARCHAR(64) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "amount" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "pending_debits" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "pending_credits" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_settlement_accounts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ledger_settlement_accounts_environment_currency_key" ON "ledger_settlement_accounts"("environment", "currency");

-- One side of a posting on one account: what the API calls a transaction. A posting is two or more
-- entries with the same posting_id whose debits equal their credits. No foreign key to accounts: the
-- history outlives a deleted account, as the audit trail does.
CREATE TABLE "ledger_entries" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "account_id" UUID NOT NULL,
    "is_settlement" BOOLEAN NOT NULL,
    "posting_id" UUID NOT NULL,
    "transfer_id" UUID,
    "type" VARCHAR(6) NOT NULL,
    "amount" DECIMAL(24,6) NOT NULL,
    "posted_amount" DECIMAL(24,6),
    "currency" CHAR(3) NOT NULL,
    "description" TEXT NOT NULL,
    "status" VARCHAR(7) NOT NULL,
    "balance_after" DECIMAL(24,6),
    "reverses_entry_id" UUID,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "posted_at" TIMESTAMPTZ(3),
    "voided_at" TIMESTAMPTZ(3),

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ledger_entries_type" CHECK ("type" IN ('CREDIT', 'DEBIT')),
    CONSTRAINT "ledger_entries_status" CHECK ("status" IN ('PENDING', 'POSTED', 'VOIDED')),
    CONSTRAINT "ledger_entries_amount_positive" CHECK ("amount" > 0),
    CONSTRAINT "ledger_entries_posted_amount" CHECK ("posted_amount" IS NULL OR ("posted_amount" > 0 AND "posted_amount" <= "amount")),
    CONSTRAINT "ledger_entries_posted_has_balance" CHECK (("status" = 'POSTED') = ("balance_after" IS NOT NULL AND "posted_amount" IS NOT NULL AND "posted_at" IS NOT NULL))
);
CREATE UNIQUE INDEX "ledger_entries_seq_key" ON "ledger_entries"("seq");
-- A transaction is reversed at most once.
CREATE UNIQUE INDEX "ledger_entries_reverses_entry_id_key" ON "ledger_entries"("reverses_entry_id");
-- An account's history, newest first (the account's recent transactions and the paged list).
CREATE INDEX "ledger_entries_account_id_seq_idx" ON "ledger_entries"("account_id", "seq");
CREATE INDEX "ledger_entries_posting_id_idx" ON "ledger_entries"("posting_id");
-- The hold-expiry sweep finds pending holds past their expiry.
CREATE INDEX "ledger_entries_expires_at_idx" ON "ledger_entries"("expires_at") WHERE "status" = 'PENDING';

-- Posted entries never change and no entry is ever deleted; a pending one (a hold) changes once, to
-- POSTED or VOIDED, and only in the columns that say so.
CREATE FUNCTION "ledger_entries_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'UPDATE' THEN
        RAISE EXCEPTION 'ledger_entries is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF OLD."status" <> 'PENDING' OR NEW."status" NOT IN ('POSTED', 'VOIDED')
       OR (NEW."id", NEW."seq", NEW."environment", NEW."account_id", NEW."is_settlement", NEW."posting_id", NEW."transfer_id",
           NEW."type", NEW."amount", NEW."currency", NEW."description", NEW."reverses_entry_id", NEW."expires_at", NEW."created_at")
          IS DISTINCT FROM
          (OLD."id", OLD."seq", OLD."environment", OLD."account_id", OLD."is_settlement", OLD."posting_id", OLD."transfer_id",
           OLD."type", OLD."amount", OLD."currency", OLD."description", OLD."reverses_entry_id", OLD."expires_at", OLD."created_at") THEN
        RAISE EXCEPTION 'ledger_entries: only a pending entry may change, once, to POSTED or VOIDED' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER "ledger_entries_immutable"
    BEFORE UPDATE OR DELETE ON "ledger_entries"
    FOR EACH ROW EXECUTE FUNCTION "ledger_entries_guard"();
CREATE TRIGGER "ledger_entries_no_truncate"
    BEFORE TRUNCATE ON "ledger_entries"
    FOR EACH STATEMENT EXECUTE FUNCTION "ledger_entries_guard"();

-- Every posting a statement writes is balanced (its credits equal its debits, in one currency), checked
-- by the database itself whatever code wrote it.
CREATE FUNCTION "ledger_entries_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    unbalanced UUID;
BEGIN
    SELECT "posting_id" INTO unbalanced FROM new_entries
    GROUP BY "posting_id"
    HAVING count(*) < 2
        OR count(DISTINCT "currency") <> 1
        OR sum(CASE "type" WHEN 'CREDIT' THEN "amount" ELSE -"amount" END) <> 0
    LIMIT 1;
    IF unbalanced IS NOT NULL THEN
        RAISE EXCEPTION 'ledger posting % is not balanced', unbalanced USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER "ledger_entries_postings_balanced"
    AFTER INSERT ON "ledger_entries"
    REFERENCING NEW TABLE AS new_entries
    FOR EACH STATEMENT EXECUTE FUNCTION "ledger_entries_balanced"();
