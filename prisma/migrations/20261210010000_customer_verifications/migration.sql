-- docs/adr/0101: a customer's verification (KYC for a person, KYB for a business). One row per customer once
-- anything happened to its verification; no row reads as UNVERIFIED (no transition leads back there), so
-- creating a customer writes nothing here. Deleted with its customer.
CREATE TABLE "customer_verifications" (
    "customer_id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    -- The last decision by a person (POST …/verification/decision): who, when, what and why.
    "decision_outcome" VARCHAR(16),
    "decision_reason" TEXT,
    "decided_by" VARCHAR(200),
    "decided_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "customer_verifications_pkey" PRIMARY KEY ("customer_id", "environment"),
    CONSTRAINT "customer_verifications_customer_fkey" FOREIGN KEY ("customer_id", "environment")
        REFERENCES "customers"("id", "environment") ON DELETE CASCADE ON UPDATE RESTRICT,
    CONSTRAINT "customer_verifications_status_check"
        CHECK ("status" IN ('UNVERIFIED', 'PENDING', 'NEEDS_REVIEW', 'VERIFIED', 'REJECTED')),
    CONSTRAINT "customer_verifications_decision_check" CHECK (
        ("decision_outcome" IS NULL AND "decision_reason" IS NULL AND "decided_by" IS NULL AND "decided_at" IS NULL)
        OR ("decision_outcome" IN ('VERIFIED', 'REJECTED') AND "decision_reason" IS NOT NULL
            AND "decided_by" IS NOT NULL AND "decided_at" IS NOT NULL)),
    CONSTRAINT "customer_verifications_reason_check" CHECK (char_length("decision_reason") <= 500)
);

-- The review queue (GET /{environment}/customer?verificationStatus=NEEDS_REVIEW): a status's customers in id
-- order, a page at a time, read from this index alone.
CREATE INDEX "customer_verifications_status_idx" ON "customer_verifications" ("environment", "status", "customer_id");

-- Each check asked of a provider: what it covered (field names, and a digest of each field's value then, so a
-- later change of one reopens the requirement), and what the provider answered.
CREATE TABLE "verification_checks" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "provider" VARCHAR(32) NOT NULL,
    "reference" VARCHAR(128) NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'PENDING',
    "outcome" VARCHAR(16),
    "reason_codes" TEXT[] NOT NULL DEFAULT '{}',
    "covered_fields" TEXT[] NOT NULL,
    -- Field name → base64 SHA-256 of its value when the check was asked (never the value itself).
    "field_digests" JSONB NOT NULL,
    "requested_by" VARCHAR(200) NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- When the job first asks the provider for the result (the sandbox: VERIFICATION_SANDBOX_DELAY_MS after the request).
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    CONSTRAINT "verification_checks_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "verification_checks_customer_fkey" FOREIGN KEY ("customer_id", "environment")
        REFERENCES "customers"("id", "environment") ON DELETE CASCADE ON UPDATE RESTRICT,
    CONSTRAINT "verification_checks_kind_check" CHECK ("kind" IN ('IDENTITY', 'BUSINESS')),
    CONSTRAINT "verification_checks_status_check" CHECK (
        ("status" = 'PENDING' AND "outcome" IS NULL AND "completed_at" IS NULL)
        OR ("status" = 'COMPLETED' AND "outcome" IN ('VERIFIED', 'NEEDS_REVIEW', 'REJECTED') AND "completed_at" IS NOT NULL))
);

-- A customer's checks, newest first (the verification record lists them).
CREATE INDEX "verification_checks_customer_idx" ON "verification_checks" ("customer_id", "environment", "requested_at");
-- The job's look-up: the pending checks that are due.
CREATE INDEX "verification_checks_due_idx" ON "verification_checks" ("due_at") WHERE "status" = 'PENDING';
