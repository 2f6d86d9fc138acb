-- Optimistic concurrency (issue 30, item 4; docs/adr/0057-row-versions-and-etags.md): a row version on customers
-- and accounts that every change of what their endpoints answer moves, so an ETag can be built from it and a write
-- can compare and set it in its own statement (If-Match, GraphQL `expectedVersion`).
--
-- The database moves the versions, not the statements: a BEFORE UPDATE trigger per table, so every write path
-- (the ledger's postings, the flags, a release that predates this one during a rolling upgrade) moves them.
-- * An account's version moves with every update of its row, postings and holds included: its balance and
--   newest transactions are part of what `GET /account/{id}` answers.
-- * A customer's version does not move when only its sealed columns change (PII key rotation): what a client
--   reads of it is the same.
-- * Links: a customer's `accountIds` and an account's `customers` are part of what they answer, so a statement
--   that links or unlinks moves both sides' versions (statement-level triggers on account_customers). An
--   account's row version moves (its row is locked by every link change already). A customer's links move a
--   counter of its own, `customer_link_versions`, not the customer's row: locking the customer row there made
--   an account creation (holding the row's KEY SHARE from its link's foreign key) upgrade its lock behind a
--   waiting DELETE of the customer, a deadlock (scripts/reliability/test/invariants.test.ts, invariant 2). A
--   customer's version is its row version plus that counter (cas_customer_version): both only grow, so every
--   change gives a new one. A new account starts at 0 and its first links make it 1, in the statement that
--   creates it.
-- Versions wrap from 2147483647 to 1 (a 32-bit GraphQL Int); a client would have to hold a version across
-- two billion changes of one record to be misled.
--
-- Expand-only: ADD COLUMN with a constant default rewrites nothing; the previous release neither reads nor
-- writes the columns, and its writes move them through the triggers.
ALTER TABLE "customers" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "accounts" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION "cas_next_version"(current integer) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    RETURN CASE WHEN current >= 2147483647 THEN 1 ELSE current + 1 END;

CREATE FUNCTION "accounts_next_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.version := "cas_next_version"(OLD.version);
    RETURN NEW;
END;
$$;

CREATE TRIGGER "accounts_version"
    BEFORE UPDATE ON "accounts"
    FOR EACH ROW EXECUTE FUNCTION "accounts_next_version"();

-- Every column but the sealed ones, the bookkeeping and the version itself.
CREATE FUNCTION "customers_next_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    unseen CONSTANT text[] := ARRAY['ssn_blind_index', 'ssn_ciphertext', 'document_locator_number_ciphertext', 'pii_key_id', 'updated_at', 'version'];
BEGIN
    IF NEW.version <> OLD.version OR (to_jsonb(NEW) - unseen) IS DISTINCT FROM (to_jsonb(OLD) - unseen) THEN
        NEW.version := "cas_next_version"(OLD.version);
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER "customers_version"
    BEFORE UPDATE ON "customers"
    FOR EACH ROW EXECUTE FUNCTION "customers_next_version"();

-- One row per customer whose links ever changed; it goes with the customer (whose links must be gone first).
CREATE TABLE "customer_link_versions" (
    "customer_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    CONSTRAINT "customer_link_versions_pkey" PRIMARY KEY ("customer_id"),
    CONSTRAINT "customer_link_versions_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE RESTRICT
);

-- What a customer's ETag and GraphQL `version` carry: its row version plus its link counter, in 1..2147483647.
CREATE FUNCTION "cas_customer_version"(customer_id uuid, row_version integer) RETURNS integer
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN ((row_version::bigint + coalesce((SELECT v.version FROM "customer_link_versions" v WHERE v.customer_id = "cas_customer_version".customer_id), 0) - 1) % 2147483647 + 1)::integer;

CREATE FUNCTION "account_customers_move_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- In customer id order, as the limits' trigger takes its advisory locks.
    INSERT INTO "customer_link_versions" AS v ("customer_id", "version")
    SELECT DISTINCT l.customer_id, 1 FROM changed_links l ORDER BY l.customer_id
    ON CONFLICT ("customer_id") DO UPDATE SET "version" = "cas_next_version"(v."version");
    UPDATE "accounts" a SET version = a.version WHERE a.id IN (SELECT account_id FROM changed_links);
    RETURN NULL;
END;
$$;

CREATE TRIGGER "account_customers_versions_on_insert"
    AFTER INSERT ON "account_customers"
    REFERENCING NEW TABLE AS changed_links
    FOR EACH STATEMENT EXECUTE FUNCTION "account_customers_move_versions"();

CREATE TRIGGER "account_customers_versions_on_delete"
    AFTER DELETE ON "account_customers"
    REFERENCING OLD TABLE AS changed_links
    FOR EACH STATEMENT EXECUTE FUNCTION "account_customers_move_versions"();
