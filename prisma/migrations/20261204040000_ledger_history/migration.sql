-- History and statements (issue 31, docs/adr/0059-balances-as-of-by-posting-order.md): an account's balance
-- at any past moment is the `balance_after` of its last entry posted at or before that moment, found by one
-- probe of an index, never a sum over the history.
--
-- For that, the order of an account's posted entries in time must be the order in which their balances were
-- computed. `posted_at` was the posting statement's start (CURRENT_TIMESTAMP): a statement that waited for an
-- account's row lock could carry an earlier time than the posting it waited for. From now on a trigger sets
-- `posted_at` to the moment the entries are written (clock_timestamp(), after every lock of the statement is
-- held), and numbers each with `posting_seq` from one sequence, at the same moment. Postings on one account
-- (and on a settlement account) serialise on its row, so both orders agree per account: (posted_at,
-- posting_seq) is the order of `balance_after`. A hold keeps its `seq` of creation and takes its
-- `posting_seq` when it posts. `was_hold` records that an entry began as a hold, for the pending balance as
-- of a past moment (created_at .. posted_at / voided_at).
--
-- Expand-only: the previous release neither reads nor writes the new columns; the trigger fills them for
-- its writes too.
ALTER TABLE "ledger_entries"
    ADD COLUMN "posting_seq" BIGINT,
    ADD COLUMN "was_hold" BOOLEAN NOT NULL DEFAULT false;

CREATE SEQUENCE "ledger_entries_posting_seq" AS BIGINT OWNED BY "ledger_entries"."posting_seq";

-- Entries written before this migration: posted ones are numbered in (posted_at, seq) order, the order the
-- balances were computed in as far as the stored times tell; an entry that is or was pending began as a
-- hold (one that posted in full keeps no trace of it but expires_at or its later posted_at).
ALTER TABLE "ledger_entries" DISABLE TRIGGER "ledger_entries_immutable";
UPDATE "ledger_entries" e SET "posting_seq" = numbered.n
FROM (SELECT "id", nextval('"ledger_entries_posting_seq"') AS n FROM (
        SELECT "id" FROM "ledger_entries" WHERE "status" = 'POSTED' ORDER BY "posted_at", "seq") ordered) numbered
WHERE e."id" = numbered."id";
UPDATE "ledger_entries" SET "was_hold" = true
WHERE "status" <> 'POSTED' OR "expires_at" IS NOT NULL OR "posted_at" > "created_at" + interval '1 second';
ALTER TABLE "ledger_entries" ENABLE TRIGGER "ledger_entries_immutable";

-- Every entry a transaction posts gets the same posted_at: the clock when it wrote its first one (the legs of
-- a posting are never told apart by time, so an export of [from, to) never splits a posting). A write is one
-- statement in its own transaction, so that moment is after all of its row locks are held.
CREATE FUNCTION "ledger_entries_posting_order"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    stamp TEXT;
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW."was_hold" := NEW."status" = 'PENDING';
    END IF;
    IF NEW."status" = 'POSTED' AND (TG_OP = 'INSERT' OR OLD."status" <> 'POSTED') THEN
        stamp := current_setting('cas.ledger_posted_at', true);
        IF stamp IS NULL OR stamp = '' THEN
            stamp := clock_timestamp()::text;
            PERFORM set_config('cas.ledger_posted_at', stamp, true);
        END IF;
        NEW."posted_at" := stamp::timestamptz;
        NEW."posting_seq" := nextval('"ledger_entries_posting_seq"');
    END IF;
    RETURN NEW;
END;
$$;
-- BEFORE row triggers run in name order: after ledger_entries_immutable, which compares neither column.
CREATE TRIGGER "ledger_entries_posting_order"
    BEFORE INSERT OR UPDATE ON "ledger_entries"
    FOR EACH ROW EXECUTE FUNCTION "ledger_entries_posting_order"();

-- Balance as of, balance history, statements: an account's posted entries in posting order, with the
-- balance after each, so the look-up reads the index alone.
CREATE INDEX "ledger_entries_account_posted_idx" ON "ledger_entries" ("account_id", "posted_at", "posting_seq")
    INCLUDE ("balance_after") WHERE "status" = 'POSTED';
-- The ledger export: an environment's posted entries in posting order, a batch at a time.
CREATE INDEX "ledger_entries_environment_posted_idx" ON "ledger_entries" ("environment", "posted_at", "posting_seq")
    WHERE "status" = 'POSTED';
-- Pending and available as of a moment: the account's holds by the moment they stopped being pending
-- (posted or voided; never, while still pending), so a look-up reads the holds open at that moment or
-- settled since, not every hold the account ever had.
CREATE INDEX "ledger_entries_account_holds_idx" ON "ledger_entries" ("account_id", (coalesce("posted_at", "voided_at", 'infinity'::timestamptz)))
    INCLUDE ("created_at", "type", "amount") WHERE "was_hold";
