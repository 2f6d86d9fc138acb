-- CreateTable
CREATE TABLE "customers" (
    "id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "ssn_blind_index" BYTEA NOT NULL,
    "ssn_ciphertext" BYTEA NOT NULL,
    "document_locator_number_ciphertext" BYTEA NOT NULL,
    "pii_key_id" VARCHAR(64) NOT NULL,
    "date_of_birth" DATE NOT NULL,
    "preferred_name" TEXT NOT NULL,
    "first_name" TEXT NOT NULL,
    "middle_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "emails" TEXT[],
    "phone_numbers" JSONB NOT NULL,
    "addresses" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "type" VARCHAR(64) NOT NULL,
    "name" TEXT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "amount" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "flags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_customers" (
    "account_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "environment" VARCHAR(64) NOT NULL,
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_customers_pkey" PRIMARY KEY ("account_id","customer_id")
);

-- CreateIndex
CREATE INDEX "customers_environment_id_idx" ON "customers"("environment", "id");

-- CreateIndex
CREATE UNIQUE INDEX "customers_id_environment_key" ON "customers"("id", "environment");

-- CreateIndex
CREATE UNIQUE INDEX "customers_environment_ssn_blind_index_key" ON "customers"("environment", "ssn_blind_index");

-- CreateIndex
CREATE INDEX "accounts_environment_id_idx" ON "accounts"("environment", "id");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_id_environment_key" ON "accounts"("id", "environment");

-- CreateIndex
CREATE INDEX "account_customers_customer_id_environment_idx" ON "account_customers"("customer_id", "environment");

-- AddForeignKey
ALTER TABLE "account_customers" ADD CONSTRAINT "account_customers_account_id_environment_fkey" FOREIGN KEY ("account_id", "environment") REFERENCES "accounts"("id", "environment") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_customers" ADD CONSTRAINT "account_customers_customer_id_environment_fkey" FOREIGN KEY ("customer_id", "environment") REFERENCES "customers"("id", "environment") ON DELETE RESTRICT ON UPDATE CASCADE;
