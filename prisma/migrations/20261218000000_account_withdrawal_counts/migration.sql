-- docs/adr/0114: an account on a product counts its client's debits of the business date and month on its own row, so
-- the posting statement checks and moves them on the row it locks: a second debit waits for the first one's commit
-- and reads its counts, and concurrent debits never pass a product's limit together. NULL until an account on a
-- product is first debited by its client (an account without a product keeps them NULL: no storage). No index may
-- cover them: every posting's update of an account stays HOT (test/features/dormancy/end-of-day-due-plans.test.ts).
ALTER TABLE "accounts"
    ADD COLUMN "withdrawal_day" DATE,
    ADD COLUMN "withdrawal_day_total" DECIMAL(24,6),
    ADD COLUMN "withdrawal_month" DATE,
    ADD COLUMN "withdrawal_month_count" INTEGER;
