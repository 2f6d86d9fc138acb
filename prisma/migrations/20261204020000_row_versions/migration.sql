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
--   that links or unlinks moves both sides' versions (statement-level triggers on account_customers, after the
--   limits' trigger; customers are locked in id order, as that trigger's advisory locks are taken). A new
--   account starts at 0 and its first links make it 1, in the statement that creates it.
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

CREATE FUNCTION "account_customers_move_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM "customers" c WHERE c.id IN (SELECT customer_id FROM changed_links) ORDER BY c.id FOR NO KEY UPDATE;
    UPDATE "customers" c SET version = "cas_next_version"(c.version) WHERE c.id IN (SELECT customer_id FROM changed_links);
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
