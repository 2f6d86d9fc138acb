-- docs/adr/0103: a customer's verification documents (an ID, a proof of address, a certificate of formation, …),
-- uploaded as raw bytes and stored only encrypted under the PII keys. The document's row is its metadata; its
-- content is in verification_document_chunks, sealed a chunk at a time (so neither an upload, a download nor a key
-- rotation ever holds more than a chunk's plaintext at once). Deleted with its customer.
CREATE TABLE "verification_documents" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "type" VARCHAR(32) NOT NULL,
    "media_type" VARCHAR(32) NOT NULL,
    -- The plaintext's length and SHA-256 digest (32 bytes), taken as it was received.
    "size_bytes" INTEGER NOT NULL,
    "sha256" BYTEA NOT NULL,
    "chunk_count" INTEGER NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'RECEIVED',
    "reason_code" VARCHAR(32),
    "uploaded_by" VARCHAR(200) NOT NULL,
    "uploaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reviewed_by" VARCHAR(200),
    "reviewed_at" TIMESTAMPTZ(3),
    CONSTRAINT "verification_documents_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "verification_documents_customer_fkey" FOREIGN KEY ("customer_id", "environment")
        REFERENCES "customers"("id", "environment") ON DELETE CASCADE ON UPDATE RESTRICT,
    CONSTRAINT "verification_documents_type_check"
        CHECK ("type" IN ('ID_DOCUMENT', 'PROOF_OF_ADDRESS', 'CERTIFICATE_OF_FORMATION', 'EIN_LETTER', 'OTHER')),
    CONSTRAINT "verification_documents_media_type_check"
        CHECK ("media_type" IN ('application/pdf', 'image/png', 'image/jpeg')),
    CONSTRAINT "verification_documents_size_check" CHECK ("size_bytes" BETWEEN 1 AND 10485760),
    CONSTRAINT "verification_documents_sha256_check" CHECK (octet_length("sha256") = 32),
    CONSTRAINT "verification_documents_review_check" CHECK (
        ("status" = 'RECEIVED' AND "reason_code" IS NULL AND "reviewed_by" IS NULL AND "reviewed_at" IS NULL)
        OR ("status" = 'APPROVED' AND "reason_code" IS NULL AND "reviewed_by" IS NOT NULL AND "reviewed_at" IS NOT NULL)
        OR ("status" = 'REJECTED' AND "reason_code" IN ('EXPIRED', 'ILLEGIBLE', 'NAME_MISMATCH', 'OTHER')
            AND "reviewed_by" IS NOT NULL AND "reviewed_at" IS NOT NULL))
);

-- A customer's documents, newest first (the verification record lists them; the requirements read them).
CREATE INDEX "verification_documents_customer_idx" ON "verification_documents" ("customer_id", "environment", "uploaded_at");

-- The content, in order: chunk `seq` of the document sealed (AES-256-GCM) under the key `pii_key_id`, bound to its
-- environment, customer, document and position, so a chunk moved elsewhere or reordered fails to open.
CREATE TABLE "verification_document_chunks" (
    "document_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "pii_key_id" VARCHAR(64) NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    CONSTRAINT "verification_document_chunks_pkey" PRIMARY KEY ("document_id", "seq"),
    CONSTRAINT "verification_document_chunks_document_fkey" FOREIGN KEY ("document_id")
        REFERENCES "verification_documents"("id") ON DELETE CASCADE ON UPDATE RESTRICT
);

-- Key rotation's look-up: the chunks not under the active key.
CREATE INDEX "verification_document_chunks_key_idx" ON "verification_document_chunks" ("pii_key_id");
