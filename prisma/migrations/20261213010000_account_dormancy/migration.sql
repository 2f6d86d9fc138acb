-- Dormancy and escheatment (docs/dormancy-and-escheatment.md, docs/adr/0109).
--
-- last_activity_at: the account's last customer-initiated activity, by its environment's clock. The ledger's
-- posting statement sets it on the rows it already locks and updates (no extra round trip); a new account starts
-- with its opening (the trigger below, so every insert path, including the previous release's, sets it). NULL only
-- on a row the backfill did not reach, which no rule makes due.
-- activity_status: NULL while the account is active, INACTIVE / DORMANT once the end of day's `dormancy` step set it
-- (activity_status_at: when, by the environment's clock). A customer-initiated posting or a reactivation clears both.
-- escheatment_noticed_for: the last_activity_at for which `account.escheatment_due` was emitted (at most once per
-- period of inactivity: a new activity starts a new period).
ALTER TABLE "accounts"
    ADD COLUMN "last_activity_at" TIMESTAMPTZ(3),
    ADD COLUMN "activity_status" VARCHAR(16),
    ADD COLUMN "activity_status_at" TIMESTAMPTZ(3),
    ADD COLUMN "escheatment_noticed_for" TIMESTAMPTZ(3);
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_activity_status" CHECK (
    ("activity_status" IS NULL AND "activity_status_at" IS NULL)
    OR ("activity_status" IN ('INACTIVE', 'DORMANT') AND "activity_status_at" IS NOT NULL)
);

-- Existing accounts: their newest customer-account entry, else their opening (both by the environment's clock).
UPDATE "accounts" a SET "last_activity_at" = coalesce(
    (SELECT max(e."created_at") FROM "ledger_entries" e WHERE e."account_id" = a."id" AND NOT e."is_settlement"),
    a."created_at" + "env_offset"(a."environment"));

CREATE FUNCTION "accounts_activity_start"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."last_activity_at" IS NULL THEN
        NEW."last_activity_at" := "env_now"(NEW."environment");
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER "accounts_activity_start"
    BEFORE INSERT ON "accounts"
    FOR EACH ROW EXECUTE FUNCTION "accounts_activity_start"();
