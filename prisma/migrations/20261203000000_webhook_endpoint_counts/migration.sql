-- Issue 28: at most WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT webhook endpoints per environment, enforced race-free
-- by the creation's one statement (src/db/webhook.store.ts). Counting the environment's endpoints in that
-- statement would not be: two concurrent creations read the same snapshot and both see room for one more.
-- So each environment has one counter row: the creation locks it (INSERT … ON CONFLICT DO UPDATE … WHERE
-- endpoints < limit, which re-reads the row's latest version after waiting for a concurrent creation) and
-- inserts only when the check passed.
--
-- A trigger keeps the counter exact, whoever inserts or deletes an endpoint (this release, the release before
-- it during a rollout, an operator's SQL), so it never drifts from the table.
CREATE TABLE "webhook_endpoint_counts" (
    "environment" VARCHAR(64) NOT NULL,
    "endpoints" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "webhook_endpoint_counts_pkey" PRIMARY KEY ("environment"),
    CONSTRAINT "webhook_endpoint_counts_endpoints_check" CHECK ("endpoints" >= 0)
);

-- Writers wait for this transaction: the count below and the trigger start from the same rows.
LOCK TABLE "webhook_endpoints" IN SHARE ROW EXCLUSIVE MODE;

INSERT INTO "webhook_endpoint_counts" ("environment", "endpoints")
SELECT "environment", count(*) FROM "webhook_endpoints" GROUP BY "environment";

CREATE FUNCTION "webhook_endpoints_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO "webhook_endpoint_counts" AS c ("environment", "endpoints") VALUES (NEW."environment", 1)
        ON CONFLICT ("environment") DO UPDATE SET "endpoints" = c."endpoints" + 1;
    ELSE
        UPDATE "webhook_endpoint_counts" SET "endpoints" = "endpoints" - 1 WHERE "environment" = OLD."environment";
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER "webhook_endpoints_counted"
    AFTER INSERT OR DELETE ON "webhook_endpoints"
    FOR EACH ROW EXECUTE FUNCTION "webhook_endpoints_count"();
