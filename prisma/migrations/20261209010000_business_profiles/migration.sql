-- docs/adr/0090: a business customer. The customers row stays the one identity (accounts link to it; ids,
-- versions, externalId, metadata, emails, phone numbers and addresses stay there); a person's own columns become
-- nullable, all present on an INDIVIDUAL row and all absent on a BUSINESS row. An entity's own fields live in
-- business_profiles, one row per business customer, deleted with it.
ALTER TABLE "customers"
    ALTER COLUMN "ssn_blind_index" DROP NOT NULL,
    ALTER COLUMN "ssn_ciphertext" DROP NOT NULL,
    ALTER COLUMN "document_locator_number_ciphertext" DROP NOT NULL,
    ALTER COLUMN "pii_key_id" DROP NOT NULL,
    ALTER COLUMN "date_of_birth" DROP NOT NULL,
    ALTER COLUMN "preferred_name" DROP NOT NULL,
    ALTER COLUMN "first_name" DROP NOT NULL,
    ALTER COLUMN "middle_name" DROP NOT NULL,
    ALTER COLUMN "last_name" DROP NOT NULL,
    ADD CONSTRAINT "customers_person_fields_check" CHECK (
        CASE "customer_type"
            WHEN 'INDIVIDUAL' THEN num_nulls("ssn_blind_index", "ssn_ciphertext", "document_locator_number_ciphertext", "pii_key_id",
                                            "date_of_birth", "preferred_name", "first_name", "middle_name", "last_name") = 0
            ELSE num_nonnulls("ssn_blind_index", "ssn_ciphertext", "document_locator_number_ciphertext", "pii_key_id",
                              "date_of_birth", "preferred_name", "first_name", "middle_name", "last_name") = 0
        END);

CREATE TABLE "business_profiles" (
    "customer_id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "legal_name" TEXT NOT NULL,
    "doing_business_as" TEXT,
    "tax_id_ciphertext" BYTEA NOT NULL,
    "tax_id_blind_index" BYTEA NOT NULL,
    -- Id of the PII key that encrypted tax_id_ciphertext (the key ring of the SSNs).
    "pii_key_id" VARCHAR(64) NOT NULL,
    "entity_type" VARCHAR(32) NOT NULL,
    "formation_date" DATE NOT NULL,
    "formation_state" TEXT,
    "formation_country" CHAR(2) NOT NULL,
    "industry" VARCHAR(6),
    "website" TEXT,
    CONSTRAINT "business_profiles_pkey" PRIMARY KEY ("customer_id", "environment"),
    CONSTRAINT "business_profiles_customer_fkey" FOREIGN KEY ("customer_id", "environment")
        REFERENCES "customers"("id", "environment") ON DELETE CASCADE ON UPDATE RESTRICT,
    CONSTRAINT "business_profiles_entity_type_check" CHECK ("entity_type" IN
        ('CORPORATION', 'LLC', 'PARTNERSHIP', 'SOLE_PROPRIETORSHIP', 'NONPROFIT', 'TRUST')),
    CONSTRAINT "business_profiles_industry_check" CHECK ("industry" ~ '^[0-9]{2,6}$')
);

-- One business per tax id and environment, found without decrypting (the SSN's rule).
CREATE UNIQUE INDEX "business_profiles_environment_tax_id_blind_index_key"
    ON "business_profiles" ("environment", "tax_id_blind_index");
-- The legalName filter: a prefix of the folded name as an index range (migration 20261204050000), as lastName.
CREATE INDEX "business_profiles_search_legal_name_idx"
    ON "business_profiles" ("environment", "cas_search_key"("legal_name") text_pattern_ops, "customer_id");
-- Rotation finds the rows not under the active key.
CREATE INDEX "business_profiles_pii_key_id_idx" ON "business_profiles" ("pii_key_id");

-- What a business answers is also its profile: a change of it (but of its sealed columns) moves the customer's
-- version, as a change of the customer's own columns does (migration 20261204020000).
CREATE FUNCTION "business_profiles_move_customer_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    unseen CONSTANT text[] := ARRAY['tax_id_ciphertext', 'pii_key_id'];
BEGIN
    IF (to_jsonb(NEW) - unseen) IS DISTINCT FROM (to_jsonb(OLD) - unseen) THEN
        UPDATE "customers" c SET version = "cas_next_version"(c.version)
         WHERE c.id = NEW.customer_id AND c.environment = NEW.environment;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "business_profiles_customer_version"
    AFTER UPDATE ON "business_profiles"
    FOR EACH ROW EXECUTE FUNCTION "business_profiles_move_customer_version"();
