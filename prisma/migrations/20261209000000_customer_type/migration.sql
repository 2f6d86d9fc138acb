-- docs/adr/0090: a customer is a person or an entity. Every existing row is a person; the business feature
-- (src/features/businesses) keeps an entity's own fields in its own table, and the account relationships' roles
-- read this column to tell who may sign.
ALTER TABLE "customers"
    ADD COLUMN "customer_type" VARCHAR(16) NOT NULL DEFAULT 'INDIVIDUAL',
    ADD CONSTRAINT "customers_customer_type_check" CHECK ("customer_type" IN ('INDIVIDUAL', 'BUSINESS'));
