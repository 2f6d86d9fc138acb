-- docs/adr/0091: a customer's relationship to an account has a role. Every existing link is an owner, as every
-- link was before roles existed; the previous release writes links without the column and so writes owners.
-- Expand-only: ADD COLUMN with a constant default rewrites nothing.
ALTER TABLE "account_customers"
    ADD COLUMN "role" VARCHAR(32) NOT NULL DEFAULT 'OWNER',
    ADD CONSTRAINT "account_customers_role_check"
        CHECK ("role" IN ('OWNER', 'AUTHORIZED_SIGNER', 'AUTHORIZED_USER', 'BENEFICIARY', 'CUSTODIAN'));

-- A role is part of what the account answers (`relationships`), so a role change moves the account's version
-- (its ETag), as a link or an unlink does (migration 20261204020000). A customer answers no roles: its own
-- version stays.
CREATE FUNCTION "account_customers_role_moves_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "accounts" a SET version = a.version
    WHERE a.id IN (SELECT n.account_id FROM new_links n JOIN old_links o USING (account_id, customer_id) WHERE n.role <> o.role);
    RETURN NULL;
END;
$$;

CREATE TRIGGER "account_customers_versions_on_role"
    AFTER UPDATE ON "account_customers"
    REFERENCING OLD TABLE AS old_links NEW TABLE AS new_links
    FOR EACH STATEMENT EXECUTE FUNCTION "account_customers_role_moves_version"();
