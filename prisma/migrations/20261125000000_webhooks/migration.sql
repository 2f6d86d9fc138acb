-- Webhooks (issue 16): endpoints, one delivery per (endpoint, event), and every attempt.
-- docs/decisions.md, "Webhooks", explains the fan-out, the claim and the ordering guarantee.

CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    -- The event types delivered; empty: every type.
    "event_types" TEXT[] NOT NULL DEFAULT '{}',
    -- The signing secret (whsec_…), AES-256-GCM under a PII key (PII_KEYS), bound to this row: never stored
    -- in clear, answered only by the creation and the rotation.
    "secret_key_id" VARCHAR(64) NOT NULL,
    "secret_ciphertext" BYTEA NOT NULL,
    -- The secret before the last rotation: deliveries carry its signature too until it expires.
    "previous_secret_key_id" VARCHAR(64),
    "previous_secret_ciphertext" BYTEA,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" VARCHAR(200),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- Since when every attempt failed (NULL after a success); a whole retry window of failures disables it.
    "failing_since" TIMESTAMPTZ(3),
    -- The fan-out's cursor: every event of the environment up to this sequence has been considered.
    "last_sequence" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_endpoints_previous_secret_check" CHECK (("previous_secret_ciphertext" IS NULL) = ("previous_secret_expires_at" IS NULL))
);
CREATE INDEX "webhook_endpoints_environment_id_idx" ON "webhook_endpoints"("environment", "id");

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "endpoint_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    -- The event's sequence: first attempts go out in this order per endpoint.
    "sequence" BIGINT NOT NULL,
    -- pending: no attempt finished yet; failed: the last attempt failed, another is due at next_attempt_at;
    -- delivered: a 2xx answer; exhausted: the retry schedule ran out.
    "status" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    -- When the next attempt is due; a claim pushes it past the attempt's time-out (a lease), so a
    -- dispatcher that dies mid-attempt leaves the delivery due again. NULL once delivered or exhausted.
    "next_attempt_at" TIMESTAMPTZ(3),
    -- The claim that may record the outcome: a dispatcher whose lease ran out cannot overwrite a newer one.
    "lease_id" UUID,
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" VARCHAR(200),
    "last_latency_ms" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed', 'exhausted')),
    CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    -- Pruning an event (EVENT_RETENTION_DAYS) prunes its deliveries and their attempts.
    CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_event_id_key" ON "webhook_deliveries"("endpoint_id", "event_id");
-- The dispatcher's work list.
CREATE INDEX "webhook_deliveries_next_attempt_at_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "next_attempt_at" IS NOT NULL;
-- The ordering check: the endpoint's deliveries still waiting for their first attempt, by sequence.
CREATE INDEX "webhook_deliveries_endpoint_id_sequence_idx" ON "webhook_deliveries"("endpoint_id", "sequence") WHERE "attempts" = 0;
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");

-- Every attempt, for the endpoint's owner: never the receiver's body beyond a short excerpt.
CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "delivery_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "succeeded" BOOLEAN NOT NULL,
    "error" VARCHAR(200),

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "webhook_attempts_delivery_id_idx" ON "webhook_attempts"("delivery_id");
CREATE INDEX "webhook_attempts_endpoint_id_attempted_at_idx" ON "webhook_attempts"("endpoint_id", "attempted_at");
