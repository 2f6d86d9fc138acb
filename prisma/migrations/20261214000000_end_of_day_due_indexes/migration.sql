-- The end of day's dormancy and escheatment-notice steps (docs/adr/0109) looked up their due accounts by walking
-- every account of the environment, once per batch of 500 and once more to find none left: a day cost the
-- environment's accounts times its batches, so a cohort of accounts falling due on one day (a portfolio opened
-- or migrated together) cost the square of its size, and every day of an escheatment notice step computed the
-- primary owner's state of every open account. These two indexes hold only what each step can find due.
--
-- The dormancy rule's two ranges: open accounts by status (NULL, INACTIVE) and last activity; DORMANT ones are
-- never read again.
CREATE INDEX "accounts_dormancy_due_idx" ON "accounts" ("environment", "activity_status", "last_activity_at")
    WHERE "closed_at" IS NULL;
-- Open accounts not yet noticed for their last activity, by last activity: the step reads those idle at least the
-- shortest period less the notice window, and looks up the state of those only.
CREATE INDEX "accounts_escheatment_due_idx" ON "accounts" ("environment", "last_activity_at")
    WHERE "closed_at" IS NULL AND "escheatment_noticed_for" IS DISTINCT FROM "last_activity_at";
