-- docs/adr/0094: the beneficial owners of a business customer (the FinCEN CDD rule, 31 CFR 1010.230): each
-- individual owning 25 % or more (prong OWNERSHIP) and one with significant control (prong CONTROL). A row
-- belongs to its business's profile (deleted with the business); its owner is an individual customer who cannot
-- be deleted while the row exists (as a customer with accounts cannot).
CREATE TABLE "beneficial_owners" (
    "business_customer_id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "owner_customer_id" UUID NOT NULL,
    "prongs" TEXT[] NOT NULL,
    "ownership_percentage" DECIMAL(5, 2),
    "title" TEXT,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "beneficial_owners_pkey" PRIMARY KEY ("business_customer_id", "environment", "owner_customer_id"),
    CONSTRAINT "beneficial_owners_business_fkey" FOREIGN KEY ("business_customer_id", "environment")
        REFERENCES "business_profiles"("customer_id", "environment") ON DELETE CASCADE ON UPDATE RESTRICT,
    CONSTRAINT "beneficial_owners_owner_fkey" FOREIGN KEY ("owner_customer_id", "environment")
        REFERENCES "customers"("id", "environment") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "beneficial_owners_not_itself_check" CHECK ("owner_customer_id" <> "business_customer_id"),
    -- Stored in one order (OWNERSHIP before CONTROL), each at most once.
    CONSTRAINT "beneficial_owners_prongs_check" CHECK (
        "prongs" IN ('{OWNERSHIP}'::text[], '{CONTROL}'::text[], '{OWNERSHIP,CONTROL}'::text[])),
    CONSTRAINT "beneficial_owners_ownership_check" CHECK (
        ('OWNERSHIP' = ANY ("prongs")) = ("ownership_percentage" IS NOT NULL)
        AND ("ownership_percentage" IS NULL OR "ownership_percentage" BETWEEN 0 AND 100)),
    CONSTRAINT "beneficial_owners_title_check" CHECK (char_length("title") <= 100)
);

-- A customer's delete asks whether it owns or controls a business (the RESTRICT key's look-up).
CREATE INDEX "beneficial_owners_owner_idx" ON "beneficial_owners" ("owner_customer_id", "environment");
