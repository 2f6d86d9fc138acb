-- docs/adr/0107: an account's account numbers (the numbers a payroll or a bank transfer sends money to, with the
-- environment's ABA routing number). The number itself is sealed by the service (AES-256-GCM under the PII keys,
-- bound to its environment, account and row): this table holds its ciphertext, the key id it is under, an HMAC
-- blind index for look-ups and uniqueness, and its last four digits, which every answer but the scoped list shows.
-- The number is never in plain text here, so accounts that existed before this migration cannot be given one by
-- SQL: the service issues theirs on the first read of their numbers (docs/account-numbers.md).
CREATE TABLE "account_numbers" (
    "id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "account_id" UUID NOT NULL,
    "pii_key_id" VARCHAR(64) NOT NULL,
    "number_ciphertext" BYTEA NOT NULL,
    "number_blind_index" BYTEA NOT NULL,
    "last4" CHAR(4) NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'ACTIVE',
    "inbound_ach_debits" VARCHAR(16) NOT NULL DEFAULT 'ALLOWED',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "account_numbers_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "account_numbers_account_id_environment_fkey" FOREIGN KEY ("account_id", "environment")
        REFERENCES "accounts"("id", "environment") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "account_numbers_status_check" CHECK ("status" IN ('ACTIVE', 'DISABLED', 'CANCELED')),
    CONSTRAINT "account_numbers_inbound_ach_debits_check" CHECK ("inbound_ach_debits" IN ('ALLOWED', 'BLOCKED')),
    CONSTRAINT "account_numbers_last4_check" CHECK ("last4" ~ '^[0-9]{4}$')
);

-- Unique per environment: the blind index is HMAC(environment, number), so equal numbers have equal indexes.
CREATE UNIQUE INDEX "account_numbers_environment_number_blind_index_key"
    ON "account_numbers" ("environment", "number_blind_index");
-- An account's numbers, oldest first.
CREATE INDEX "account_numbers_environment_account_id_created_at_idx"
    ON "account_numbers" ("environment", "account_id", "created_at");

-- Not expressible in schema.prisma: CANCELED is final (no row leaves it), whatever statement tries.
CREATE FUNCTION "account_numbers_canceled_is_final"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD."status" = 'CANCELED' AND (NEW."status" <> 'CANCELED' OR NEW."inbound_ach_debits" <> OLD."inbound_ach_debits") THEN
        RAISE EXCEPTION 'account number % is CANCELED, which is final', OLD."id"
            USING ERRCODE = 'check_violation', CONSTRAINT = 'account_numbers_canceled_is_final';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER "account_numbers_canceled_final"
    BEFORE UPDATE ON "account_numbers"
    FOR EACH ROW EXECUTE FUNCTION "account_numbers_canceled_is_final"();
