-- docs/adr/0112: an account may be opened on a deposit product. Its code, not its id: the code names the product for
-- ever (products never change nor go away), and the account's answers show it as it is. The foreign key names the
-- environment too, as every cross-table reference does; an account without a product keeps NULL.
ALTER TABLE "accounts" ADD COLUMN "product_code" VARCHAR(32);
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_product_fkey" FOREIGN KEY ("environment", "product_code")
    REFERENCES "products"("environment", "code") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- Not expressible in schema.prisma: an account on a product keeps the product's type and currency, whatever
-- statement writes it (an update of the currency included): PRODUCT_MISMATCH, nothing written.
CREATE FUNCTION "accounts_match_their_product"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."product_code" IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM "products" p
        WHERE p."environment" = NEW."environment" AND p."code" = NEW."product_code"
          AND p."account_type" = NEW."type" AND p."currency" = NEW."currency") THEN
        RAISE EXCEPTION 'new row for relation "accounts" violates check constraint "accounts_match_their_product"'
            USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_match_their_product';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER "accounts_product_match"
    BEFORE INSERT OR UPDATE OF "type", "currency", "product_code" ON "accounts"
    FOR EACH ROW EXECUTE FUNCTION "accounts_match_their_product"();
