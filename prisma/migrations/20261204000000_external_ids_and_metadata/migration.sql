-- External ids, metadata and the phone filter (docs/adr/0055-external-ids-and-metadata.md).
--
-- `external_id`: the client's own id for a customer or an account, unique per environment and kind. NULL when
-- unset (NULLs are distinct, so any number of records have none); the unique index also serves the filter.
-- A duplicate is refused by the index, so two concurrent writes cannot both take one id (EXTERNAL_ID_TAKEN).
--
-- `metadata`: the client's string key-value pairs, NULL when there are none (never an empty object, so a
-- record that uses none reads as before). The domain checks each key and value (src/domain/metadata.ts); the
-- database checks the count, because an update merges into what is stored: a merge that would leave more
-- than 50 keys violates the CHECK and writes nothing. The filter is containment (`metadata @> '{"k":"v"}'`),
-- served by a GIN index with jsonb_path_ops (smaller than the default operator class, and @> is all we ask).
--
-- `phone_search_keys`: each phone number normalised to E.164 by the service (libphonenumber-js, default region
-- US), so "(555) 123-4567" and "+1 555 123 4567" are one key; the filter is containment, through a GIN index
-- as the emails'. Rows written before this migration get their keys from the SQL below, which gives the same
-- key as the library for numbers written with a leading + and for US numbers of 10 digits (or 11 with the
-- leading 1); any update of the customer's phone numbers writes the library's keys.
--
-- Not CONCURRENTLY (a migration is one transaction). Expand-only: the previous release neither reads these
-- columns nor writes them (a customer it creates has no phone keys until its phone numbers next change).
ALTER TABLE "customers"
    ADD COLUMN "external_id" VARCHAR(128),
    ADD COLUMN "metadata" JSONB,
    ADD COLUMN "phone_search_keys" TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE "accounts"
    ADD COLUMN "external_id" VARCHAR(128),
    ADD COLUMN "metadata" JSONB;

CREATE FUNCTION "cas_metadata_key_count"(metadata jsonb) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    RETURN (SELECT count(*)::integer FROM jsonb_object_keys(metadata));

-- 50: METADATA_LIMITS.keys in src/domain/metadata.ts (Stripe's limit).
ALTER TABLE "customers" ADD CONSTRAINT "customers_metadata_keys" CHECK ("cas_metadata_key_count"("metadata") <= 50);
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_metadata_keys" CHECK ("cas_metadata_key_count"("metadata") <= 50);

CREATE UNIQUE INDEX "customers_environment_external_id_key" ON "customers" ("environment", "external_id");
CREATE UNIQUE INDEX "accounts_environment_external_id_key" ON "accounts" ("environment", "external_id");
CREATE INDEX "customers_search_metadata_idx" ON "customers" USING GIN ("metadata" jsonb_path_ops);
CREATE INDEX "accounts_search_metadata_idx" ON "accounts" USING GIN ("metadata" jsonb_path_ops);
CREATE INDEX "customers_search_phone_idx" ON "customers" USING GIN ("phone_search_keys");

UPDATE "customers" c SET "phone_search_keys" = ARRAY(
    SELECT DISTINCT CASE
        WHEN phone->>'number' ~ '^\s*\+' THEN '+' || digits
        WHEN length(digits) = 11 AND digits LIKE '1%' THEN '+' || digits
        ELSE '+1' || digits
    END
    FROM jsonb_array_elements(c."phone_numbers") AS phone,
         LATERAL (SELECT regexp_replace(phone->>'number', '[^0-9]', '', 'g') AS digits) d
    WHERE digits <> '')
WHERE jsonb_array_length(c."phone_numbers") > 0;
