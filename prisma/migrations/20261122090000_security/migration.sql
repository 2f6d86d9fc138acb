-- Security: managed API tokens, the append-only audit trail, idempotency keys.

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" VARCHAR(32) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "secret_hash" BYTEA NOT NULL,
    "environments" TEXT[],
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" UUID NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "principal_id" VARCHAR(300) NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "operation" VARCHAR(64) NOT NULL,
    "resource_type" VARCHAR(32) NOT NULL,
    "resource_id" UUID NOT NULL,
    "request_id" VARCHAR(128) NOT NULL,
    "idempotency_key" VARCHAR(255),
    "changed_fields" TEXT[],

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "principal_id" VARCHAR(300) NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "operation" VARCHAR(64) NOT NULL,
    "fingerprint" BYTEA NOT NULL,
    "result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("principal_id","environment","key")
);

-- CreateIndex
CREATE INDEX "audit_events_environment_id_idx" ON "audit_events"("environment", "id");

-- CreateIndex
CREATE INDEX "audit_events_environment_resource_id_id_idx" ON "audit_events"("environment", "resource_id", "id");

-- CreateIndex
CREATE INDEX "audit_events_environment_occurred_at_idx" ON "audit_events"("environment", "occurred_at");

-- CreateIndex
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys"("expires_at");

-- Not expressible in schema.prisma: the audit trail is append-only. Any UPDATE, DELETE or TRUNCATE
-- raises, whatever role runs it; only the table owner could drop or disable the triggers (run the
-- service as a role that owns nothing: docs/security.md). There is deliberately no foreign key to
-- customers or accounts: their audit rows outlive them.
CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "audit_events_no_update_or_delete"
    BEFORE UPDATE OR DELETE ON "audit_events"
    FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"();

CREATE TRIGGER "audit_events_no_truncate"
    BEFORE TRUNCATE ON "audit_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_refuse_change"();
