-- docs/adr/0112: deposit products, the terms an account is opened on. A product is immutable once defined (a new code
-- instead), except its interest rate, which changes only forward: each rate is a dated row of product_rates, in force
-- from its effective_from (a business date of the environment) until the next one's. Rates and amounts are exact
-- NUMERIC, answered as decimal strings.
CREATE TABLE "products" (
    "id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "code" VARCHAR(32) NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "account_type" VARCHAR(64) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "day_count" VARCHAR(16),
    "balance_basis" VARCHAR(16),
    "compounding" VARCHAR(16),
    "posting" VARCHAR(16),
    "monthly_maintenance_fee" DECIMAL(24,6),
    "maintenance_fee_waived_at" DECIMAL(24,6),
    "minimum_opening_deposit" DECIMAL(24,6),
    "minimum_balance" DECIMAL(24,6),
    "daily_withdrawal_total" DECIMAL(24,6),
    "withdrawals_per_month" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "products_pkey" PRIMARY KEY ("id"),
    -- A product with interest has all four of its terms; one without has none.
    CONSTRAINT "products_interest_terms_check" CHECK (
        ("day_count" IS NULL) = ("balance_basis" IS NULL) AND ("day_count" IS NULL) = ("compounding" IS NULL)
        AND ("day_count" IS NULL) = ("posting" IS NULL)),
    CONSTRAINT "products_day_count_check" CHECK ("day_count" IN ('ACTUAL_365', 'ACTUAL_360', 'ACTUAL_ACTUAL')),
    CONSTRAINT "products_balance_basis_check" CHECK ("balance_basis" IN ('END_OF_DAY', 'AVERAGE_DAILY')),
    CONSTRAINT "products_compounding_check" CHECK ("compounding" IN ('DAILY', 'MONTHLY')),
    CONSTRAINT "products_posting_check" CHECK ("posting" IN ('MONTHLY', 'QUARTERLY')),
    CONSTRAINT "products_fee_waiver_check" CHECK ("maintenance_fee_waived_at" IS NULL OR "monthly_maintenance_fee" IS NOT NULL)
);

-- A code names one product per environment, for ever.
CREATE UNIQUE INDEX "products_environment_code_key" ON "products" ("environment", "code");
-- The rates' foreign key names the environment too, as every cross-table reference does.
CREATE UNIQUE INDEX "products_id_environment_key" ON "products" ("id", "environment");

CREATE TABLE "product_rates" (
    "id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "product_id" UUID NOT NULL,
    "effective_from" DATE NOT NULL,
    "annual_rate" DECIMAL(7,6),
    "tiers" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "product_rates_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "product_rates_product_id_environment_fkey" FOREIGN KEY ("product_id", "environment")
        REFERENCES "products"("id", "environment") ON DELETE CASCADE ON UPDATE CASCADE,
    -- A flat rate or tiers, never both.
    CONSTRAINT "product_rates_one_form_check" CHECK (("annual_rate" IS NULL) <> ("tiers" IS NULL)),
    CONSTRAINT "product_rates_annual_rate_check" CHECK ("annual_rate" >= 0 AND "annual_rate" < 1)
);

-- One rate per product and date: a second change for the same date is refused (PRODUCT_RATE_NOT_ALLOWED).
CREATE UNIQUE INDEX "product_rates_product_id_effective_from_key" ON "product_rates" ("product_id", "effective_from");

-- Not expressible in schema.prisma: a product and its rates never change once written (a rate is replaced by a
-- later one, never edited), whatever statement tries.
CREATE FUNCTION "products_are_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% rows never change', TG_TABLE_NAME
        USING ERRCODE = 'check_violation', CONSTRAINT = 'products_are_immutable';
END;
$$;

CREATE TRIGGER "products_immutable" BEFORE UPDATE ON "products"
    FOR EACH ROW EXECUTE FUNCTION "products_are_immutable"();
CREATE TRIGGER "product_rates_immutable" BEFORE UPDATE ON "product_rates"
    FOR EACH ROW EXECUTE FUNCTION "products_are_immutable"();
