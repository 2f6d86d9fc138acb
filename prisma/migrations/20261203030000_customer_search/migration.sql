-- Finding customers (src/domain/customers/customer-search.ts): every filter a support agent uses is served by
-- an index, so a page of matches costs the same whatever the environment's size.
--
-- Names match by prefix, case- and accent-insensitive ("mull" finds "Müller"). One function folds both the
-- stored names (in the indexes) and the searched prefix (in the query), so the rule cannot differ between
-- them: lower case of the unaccented text. `unaccent` is a trusted extension (PostgreSQL 13+), which the
-- migrating role may create; `unaccent(regdictionary, text)` with the dictionary named is what makes the
-- wrapper safe to declare IMMUTABLE and so to index.
--
-- Emails match exactly, case-insensitive: a GIN index over the lower-cased list.
--
-- Not CONCURRENTLY (a migration is one transaction): each index holds writes to customers while it builds,
-- about a second per million customers on the benchmark machine; plan the upgrade of a large table for a quiet
-- moment. Expand-only: the previous release neither reads nor writes anything here.
CREATE EXTENSION IF NOT EXISTS "unaccent" WITH SCHEMA "public";

CREATE FUNCTION "cas_search_key"(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    RETURN lower("public"."unaccent"('"public"."unaccent"'::regdictionary, value));

CREATE FUNCTION "cas_search_emails"(emails text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    RETURN ARRAY(SELECT lower(email) FROM unnest(emails) AS email);

CREATE INDEX "customers_search_last_name_idx" ON "customers" ("environment", "cas_search_key"("last_name") text_pattern_ops, "id");
CREATE INDEX "customers_search_first_name_idx" ON "customers" ("environment", "cas_search_key"("first_name") text_pattern_ops, "id");
CREATE INDEX "customers_search_emails_idx" ON "customers" USING GIN ("cas_search_emails"("emails"));
CREATE INDEX "customers_search_date_of_birth_idx" ON "customers" ("environment", "date_of_birth", "id");
CREATE INDEX "customers_search_created_at_idx" ON "customers" ("environment", "created_at", "id");

-- The planner needs statistics for the columns it now filters on (migration 20261129000000 turned them off
-- while nothing did); the expression indexes get their own.
ALTER TABLE "customers" ALTER COLUMN "date_of_birth" SET STATISTICS -1, ALTER COLUMN "created_at" SET STATISTICS -1;

-- A search by social security number is audited (who, when, which filters, how many matched; never the
-- SSN): the count has its own column, empty for every write. No planner statistics: no query filters on it.
ALTER TABLE "audit_events" ADD COLUMN "matched_count" INTEGER;
ALTER TABLE "audit_events" ALTER COLUMN "matched_count" SET STATISTICS 0;

-- The account list's filters (src/domain/accounts/account-search.ts): type and currency in id order, flags by
-- containment. A customer's accounts are found through account_customers' (customer_id, environment) index.
CREATE INDEX "accounts_search_type_idx" ON "accounts" ("environment", "type", "id");
CREATE INDEX "accounts_search_currency_idx" ON "accounts" ("environment", "currency", "id");
CREATE INDEX "accounts_search_flags_idx" ON "accounts" USING GIN ("flags");
