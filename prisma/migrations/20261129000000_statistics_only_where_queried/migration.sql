-- Planner statistics only for the columns a query filters, joins or sorts on. ANALYZE otherwise samples and
-- summarises columns no plan ever reads: ciphertexts, the customer's JSON addresses and phone numbers, names,
-- stored responses. Autoanalyze does that again every time a tenth of a table has changed, on the cores that
-- serve requests (docs/performance.md, issue 16, "Under load"; docs/reliability.md, "Soak": the slowest
-- seconds fell in autovacuum and autoanalyze rounds). Measured on the benchmark's data (58,243 customers),
-- ANALYZE customers took about 520 ms before and 145 ms after; idempotency_keys about 210 → 105 ms;
-- audit_events about 280 → 170 ms.
--
-- What stays: every column a WHERE, join or ORDER BY of the service uses (customers: id, environment,
-- ssn_blind_index, pii_key_id; idempotency_keys: principal_id, environment, key, operation, created_at,
-- expires_at; audit_events: id, environment, operation, resource_type, resource_id, occurred_at). A query that
-- starts filtering on one of the columns below needs its statistics back (SET STATISTICS -1).
--
-- Expand-safe: SHARE UPDATE EXCLUSIVE, which blocks neither reads nor writes, and no rewrite; the previous
-- release plans no differently without these statistics (it never filters on these columns either).
ALTER TABLE "customers"
    ALTER COLUMN "ssn_ciphertext" SET STATISTICS 0,
    ALTER COLUMN "document_locator_number_ciphertext" SET STATISTICS 0,
    ALTER COLUMN "date_of_birth" SET STATISTICS 0,
    ALTER COLUMN "preferred_name" SET STATISTICS 0,
    ALTER COLUMN "first_name" SET STATISTICS 0,
    ALTER COLUMN "middle_name" SET STATISTICS 0,
    ALTER COLUMN "last_name" SET STATISTICS 0,
    ALTER COLUMN "emails" SET STATISTICS 0,
    ALTER COLUMN "phone_numbers" SET STATISTICS 0,
    ALTER COLUMN "addresses" SET STATISTICS 0,
    ALTER COLUMN "created_at" SET STATISTICS 0,
    ALTER COLUMN "updated_at" SET STATISTICS 0;
ALTER TABLE "idempotency_keys"
    ALTER COLUMN "fingerprint" SET STATISTICS 0,
    ALTER COLUMN "result" SET STATISTICS 0;
ALTER TABLE "audit_events"
    ALTER COLUMN "principal_id" SET STATISTICS 0,
    ALTER COLUMN "request_id" SET STATISTICS 0,
    ALTER COLUMN "idempotency_key" SET STATISTICS 0,
    ALTER COLUMN "changed_fields" SET STATISTICS 0;
