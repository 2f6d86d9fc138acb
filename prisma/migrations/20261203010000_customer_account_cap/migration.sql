-- Issue 28: GraphQL's cost is an upper bound of the real work only if every list it multiplies by has a
-- bound. `Account.customers` had one (20, checked by the writing statement); `Customer.accounts` had none, so
-- a customer linked to thousands of accounts let one nested query exhaust the process's memory. Both bounds
-- are now the database's, checked by one statement-level trigger on every statement that links customers to
-- accounts (account creation with its customers, and adding a customer to an account):
--
-- * at most 100 accounts per customer (CUSTOMER_LIMITS.accounts; SQLSTATE LC001 -> CUSTOMER_ACCOUNT_LIMIT);
-- * at most 20 customers per account (ACCOUNT_LIMITS.associatedCustomers; SQLSTATE LC002 ->
--   ACCOUNT_CUSTOMER_LIMIT). The statement adding a customer already counted them, but with the snapshot it
--   took before it waited for the account's lock, so two concurrent additions could both see 19.
--
-- Race-free: the trigger runs after the statement's rows are written and counts with a fresh snapshot (each
-- query of a volatile function takes one), so it sees every link committed before it. Links to one account
-- are serialised by the account's row lock the adding statement holds (a new account is nobody else's yet);
-- links to one customer by a transaction-level advisory lock per customer (namespace 28, the issue), taken
-- in customer id order so two statements linking the same customers cannot deadlock. An advisory lock, not
-- the customer's row: a row lock that conflicts with itself would also block, and be blocked by, customer
-- updates and the PII key rotation, which locks customer rows FOR NO KEY UPDATE.
--
-- The limits are the trigger's arguments: changing one is a migration that recreates the trigger (and the
-- constants in src/domain, which test/db/customer-account-cap.test.ts holds to these). LC001/LC002 are in an
-- implementation-defined SQLSTATE class (the SQL standard leaves classes I-Z to implementations; PostgreSQL
-- uses none starting with L).
--
-- Existing links are not checked: a customer already over the cap (none expected) keeps its accounts and
-- only cannot gain more; the GraphQL node and size limits still bound what a query over it can produce.
-- Only new statements fire the trigger; a release that predates it sees LC001/LC002 as an unexpected error.
CREATE FUNCTION "account_customers_within_limits"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    accounts_per_customer CONSTANT integer := TG_ARGV[0]::integer;
    customers_per_account CONSTANT integer := TG_ARGV[1]::integer;
    linked uuid;
BEGIN
    FOR linked IN SELECT DISTINCT customer_id FROM inserted ORDER BY customer_id LOOP
        PERFORM pg_advisory_xact_lock(28, hashtext(linked::text));
    END LOOP;
    IF EXISTS (
        SELECT 1 FROM (SELECT DISTINCT customer_id FROM inserted) i
        WHERE (SELECT count(*) FROM account_customers ac WHERE ac.customer_id = i.customer_id) > accounts_per_customer
    ) THEN
        RAISE EXCEPTION 'a customer holds at most % accounts', accounts_per_customer USING ERRCODE = 'LC001';
    END IF;
    IF EXISTS (
        SELECT 1 FROM (SELECT DISTINCT account_id FROM inserted) i
        WHERE (SELECT count(*) FROM account_customers ac WHERE ac.account_id = i.account_id) > customers_per_account
    ) THEN
        RAISE EXCEPTION 'an account has at most % customers', customers_per_account USING ERRCODE = 'LC002';
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "account_customers_limits"
    AFTER INSERT ON "account_customers"
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION "account_customers_within_limits"('100', '20');
