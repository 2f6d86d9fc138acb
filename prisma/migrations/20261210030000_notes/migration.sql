-- docs/adr/0105: case notes on a customer or an account, written by an agent (the principal and its display name
-- at the time), listed newest first. Exactly one of customer_id and account_id names the note's record.
-- There is deliberately no foreign key to customers or accounts: a note is a case record and outlives the
-- customer or account it is about, as the audit trail does (the record's deletion is not refused for it). The
-- write checks the record exists, holding its row (FOR KEY SHARE) against a concurrent deletion.
CREATE TABLE "notes" (
    "id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "customer_id" UUID,
    "account_id" UUID,
    "text" TEXT NOT NULL,
    "author_id" VARCHAR(300) NOT NULL,
    "author_name" VARCHAR(300) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "notes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "notes_one_record_check" CHECK (num_nonnulls("customer_id", "account_id") = 1),
    -- The service's rule (1 to 2,000 characters after trimming), kept by the table too.
    CONSTRAINT "notes_text_check" CHECK (char_length("text") BETWEEN 1 AND 2000)
);

-- A record's notes, newest first, a page at a time (the cursor is the last note's (created_at, id)).
CREATE INDEX "notes_environment_customer_id_created_at_id_idx"
    ON "notes" ("environment", "customer_id", "created_at" DESC, "id" DESC) WHERE "customer_id" IS NOT NULL;
CREATE INDEX "notes_environment_account_id_created_at_id_idx"
    ON "notes" ("environment", "account_id", "created_at" DESC, "id" DESC) WHERE "account_id" IS NOT NULL;

-- Not expressible in schema.prisma: notes are append-only, like the audit trail. Any UPDATE, DELETE or TRUNCATE
-- raises, whatever role runs it (only the table owner could drop or disable the triggers).
CREATE FUNCTION "notes_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'notes is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "notes_no_update_or_delete"
    BEFORE UPDATE OR DELETE ON "notes"
    FOR EACH ROW EXECUTE FUNCTION "notes_refuse_change"();

CREATE TRIGGER "notes_no_truncate"
    BEFORE TRUNCATE ON "notes"
    FOR EACH STATEMENT EXECUTE FUNCTION "notes_refuse_change"();
