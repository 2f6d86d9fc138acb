-- Accounts close and customers archive (docs/account-lifecycle.md, docs/adr/0106). An open account has
-- closed_at NULL; a closed one keeps its row, entries, statements and balance history, and the ledger's posting
-- statements refuse it on the row they lock (ACCOUNT_CLOSED). Times are the environment's clock (env_now).
ALTER TABLE accounts ADD COLUMN closed_at timestamptz(3), ADD COLUMN close_reason varchar(32);
ALTER TABLE accounts ADD CONSTRAINT accounts_close_reason CHECK (
  (closed_at IS NULL AND close_reason IS NULL)
  OR (closed_at IS NOT NULL AND close_reason IN ('CUSTOMER_REQUEST', 'BANK_DECISION', 'FRAUD', 'DORMANCY', 'DECEASED', 'OTHER'))
);

-- An archived customer has archived_at set: it opens no account and is left out of the customer list.
ALTER TABLE customers ADD COLUMN archived_at timestamptz(3), ADD COLUMN archive_reason varchar(32);
ALTER TABLE customers ADD CONSTRAINT customers_archive_reason CHECK (
  (archived_at IS NULL AND archive_reason IS NULL)
  OR (archived_at IS NOT NULL AND archive_reason IN ('CUSTOMER_REQUEST', 'BANK_DECISION', 'FRAUD', 'DECEASED', 'DUPLICATE', 'OTHER'))
);
