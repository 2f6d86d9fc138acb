-- docs/adr/0104: the `http` verification provider and the gates.
-- A check sent to a vendor: how many times the job tried to submit it, and when the vendor accepted it (NULL: not
-- yet). Until then `due_at` is the next attempt; after it, the result arrives by the vendor's signed callback.
ALTER TABLE "verification_checks" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "verification_checks" ADD COLUMN "submitted_at" TIMESTAMPTZ(3);

-- The callbacks taken (their `webhook-id`), so a replayed one is applied at most once. Kept a week: longer than the
-- signature's 5-minute tolerance, so an old id can never be replayed with a still-valid timestamp.
CREATE TABLE "verification_callbacks" (
    "webhook_id" VARCHAR(256) NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "check_id" UUID NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "verification_callbacks_pkey" PRIMARY KEY ("webhook_id")
);
CREATE INDEX "verification_callbacks_received_idx" ON "verification_callbacks" ("received_at");
