-- Transactions and transfers carry the client's own reference and key-value pairs, given at creation and never
-- changed (docs/adr/0056-transaction-filters-and-external-ids.md), and an account's transaction list is filtered
-- by status, type, creation instant, amount and external id, each filter served by an index.
--
-- Both columns are on the customer-account entries only (a transfer's on both of its sides); the settlement
-- side's are NULL. The append-only guard (migration 20261124000000) compares the columns it lists, so an update
-- of these is refused the way it always was: by the service never writing one (no statement updates them).
ALTER TABLE "ledger_entries" ADD COLUMN "external_id" VARCHAR(128), ADD COLUMN "metadata" JSONB;
-- Nothing filters on metadata: no planner statistics (migration 20261129000000).
ALTER TABLE "ledger_entries" ALTER COLUMN "metadata" SET STATISTICS 0;

-- An external id is unique per environment and kind: among transactions (entries outside a transfer) and among
-- transfers (counted once, on the debit side). The kind is an expression of the row, so one index holds both.
CREATE UNIQUE INDEX "ledger_entries_external_id_key" ON "ledger_entries"
    ("environment", (CASE WHEN "transfer_id" IS NULL THEN 'transaction' ELSE 'transfer' END), "external_id")
    WHERE "external_id" IS NOT NULL AND NOT "is_settlement" AND ("transfer_id" IS NULL OR "type" = 'DEBIT');

-- The list's filters (src/db/sql/transaction-list.sql.ts), on customer-account entries only (the list never
-- reads the settlement side, which halves what each posting adds to them). Status and type keep the list's
-- order (seq), so a page of them stops after its rows; the instant and the amount are ranges.
CREATE INDEX "ledger_entries_list_status_idx" ON "ledger_entries" ("account_id", "status", "seq") WHERE NOT "is_settlement";
CREATE INDEX "ledger_entries_list_type_idx" ON "ledger_entries" ("account_id", "type", "seq") WHERE NOT "is_settlement";
CREATE INDEX "ledger_entries_list_created_at_idx" ON "ledger_entries" ("account_id", "created_at") WHERE NOT "is_settlement";
CREATE INDEX "ledger_entries_list_amount_idx" ON "ledger_entries" ("account_id", (coalesce("posted_amount", "amount"))) WHERE NOT "is_settlement";
CREATE INDEX "ledger_entries_list_external_id_idx" ON "ledger_entries" ("account_id", "external_id") WHERE "external_id" IS NOT NULL;
