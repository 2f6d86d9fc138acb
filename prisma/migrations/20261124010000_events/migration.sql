-- The transactional outbox (issue 16). Every write appends its events in its own statement, so an event
-- exists exactly when its change committed. docs/decisions.md, "Events", explains the sequencing.

CREATE TABLE "events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment" VARCHAR(64) NOT NULL,
    "type" VARCHAR(64) NOT NULL,
    "resource_type" VARCHAR(32) NOT NULL,
    "resource_id" UUID NOT NULL,
    -- The resource as the reads select it (the same column lists: never an SSN or document locator
    -- number); the API presents it with the same presenters as the resource itself.
    "payload" JSONB NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- The writing transaction's id: the sequencer numbers only events of transactions older than every
    -- running one, so a number, once given, is never followed by a smaller one.
    "txid" BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
    -- Gapless and increasing per environment, given by the sequencer shortly after commit; NULL until then.
    "sequence" BIGINT,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "events_environment_sequence_key" ON "events"("environment", "sequence");
-- The sequencer's work list.
CREATE INDEX "events_txid_idx" ON "events"("txid") WHERE "sequence" IS NULL;
-- Retention pruning.
CREATE INDEX "events_occurred_at_idx" ON "events"("occurred_at");

-- The last sequence number given per environment.
CREATE TABLE "event_sequences" (
    "environment" VARCHAR(64) NOT NULL,
    "last" BIGINT NOT NULL,

    CONSTRAINT "event_sequences_pkey" PRIMARY KEY ("environment")
);

-- An event never changes, except that the sequencer numbers it once.
CREATE FUNCTION "events_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD."sequence" IS NOT NULL OR NEW."sequence" IS NULL
       OR (NEW."id", NEW."environment", NEW."type", NEW."resource_type", NEW."resource_id", NEW."payload", NEW."occurred_at", NEW."txid")
          IS DISTINCT FROM
          (OLD."id", OLD."environment", OLD."type", OLD."resource_type", OLD."resource_id", OLD."payload", OLD."occurred_at", OLD."txid") THEN
        RAISE EXCEPTION 'events: an event never changes, except for its sequence number, given once' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER "events_immutable"
    BEFORE UPDATE ON "events"
    FOR EACH ROW EXECUTE FUNCTION "events_guard"();
