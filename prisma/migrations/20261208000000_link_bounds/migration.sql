-- docs/adr/0089: GraphQL's cost multiplies `Customer.accounts` and `Account.customers` by what an environment
-- really holds, not only by the caps (100 accounts per customer, 20 customers per account): the most accounts any
-- customer of the environment has held, and the most customers any account has. High-water marks: raised by the
-- links' trigger in the statement that links, never lowered by an unlink, so they stay upper bounds.
--
-- The trigger raises a mark only when a link goes past it: `UPDATE … WHERE mark < n` takes no row lock when the
-- predicate is false, so linking statements do not queue on the environment's row once the marks have settled.
-- The row is created by `INSERT … ON CONFLICT DO NOTHING`, which does not lock an existing row either.
--
-- link_bounds_recompute() sets the marks from the links as they are (this migration's back-fill, and the
-- operator's after loading links with the trigger disabled).
CREATE TABLE "link_bounds" (
    "environment" VARCHAR(64) NOT NULL,
    "accounts_per_customer" INTEGER NOT NULL DEFAULT 0,
    "customers_per_account" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "link_bounds_pkey" PRIMARY KEY ("environment")
);

CREATE FUNCTION "link_bounds_recompute"() RETURNS void LANGUAGE sql AS $$
    INSERT INTO link_bounds (environment, accounts_per_customer, customers_per_account)
    SELECT environment, max(accounts)::int, max(customers)::int FROM (
        SELECT environment, count(*) AS accounts, 0 AS customers FROM account_customers GROUP BY environment, customer_id
        UNION ALL
        SELECT environment, 0, count(*) FROM account_customers GROUP BY environment, account_id
    ) counts GROUP BY environment
    ON CONFLICT (environment) DO UPDATE SET accounts_per_customer = EXCLUDED.accounts_per_customer, customers_per_account = EXCLUDED.customers_per_account;
$$;

SELECT link_bounds_recompute();

-- The caps' function of migration 20261203010000, counting each linked customer's and account's links once for
-- both the cap and the marks. Same name, so the trigger (and its arguments, the caps) stays as it is.
CREATE OR REPLACE FUNCTION "account_customers_within_limits"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    accounts_cap CONSTANT integer := TG_ARGV[0]::integer;
    customers_cap CONSTANT integer := TG_ARGV[1]::integer;
    linked uuid;
    env varchar(64);
    most_accounts integer;
    most_customers integer;
BEGIN
    FOR linked IN SELECT DISTINCT customer_id FROM inserted ORDER BY customer_id LOOP
        PERFORM pg_advisory_xact_lock(28, hashtext(linked::text));
    END LOOP;
    FOR env IN SELECT DISTINCT environment FROM inserted LOOP
        SELECT coalesce(max((SELECT count(*) FROM account_customers ac WHERE ac.customer_id = i.customer_id)), 0) INTO most_accounts
        FROM (SELECT DISTINCT customer_id FROM inserted WHERE environment = env) i;
        IF most_accounts > accounts_cap THEN
            RAISE EXCEPTION 'a customer holds at most % accounts', accounts_cap USING ERRCODE = 'LC001';
        END IF;
        SELECT coalesce(max((SELECT count(*) FROM account_customers ac WHERE ac.account_id = i.account_id)), 0) INTO most_customers
        FROM (SELECT DISTINCT account_id FROM inserted WHERE environment = env) i;
        IF most_customers > customers_cap THEN
            RAISE EXCEPTION 'an account has at most % customers', customers_cap USING ERRCODE = 'LC002';
        END IF;
        INSERT INTO link_bounds AS b (environment) VALUES (env) ON CONFLICT (environment) DO NOTHING;
        UPDATE link_bounds b SET accounts_per_customer = greatest(b.accounts_per_customer, most_accounts),
                                 customers_per_account = greatest(b.customers_per_account, most_customers)
        WHERE b.environment = env AND (b.accounts_per_customer < most_accounts OR b.customers_per_account < most_customers);
    END LOOP;
    RETURN NULL;
END;
$$;
