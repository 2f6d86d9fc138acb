-- docs/account-numbers.md: accounts found by their account number's last four digits (the accounts filter
-- `accountNumberLast4`, the console's search). A support agent is told "my account ending 1234"; the last four are
-- what every reader of an account may see, so they are indexed in clear beside the ciphertext. One in ten thousand
-- numbers of an environment share them, so the index serves the filter with a page of candidates at most.
CREATE INDEX "account_numbers_environment_last4_idx" ON "account_numbers" ("environment", "last4");
