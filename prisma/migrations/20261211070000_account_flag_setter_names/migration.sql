-- Who set a flag, as people read it (the principal's name when it set the flag: a managed token's name, a JWT's
-- name claim, "API_TOKENS entry 2"), beside the principal id the audit trail keeps. NULL for flags set before.
ALTER TABLE account_flags ADD COLUMN set_by_name varchar(300);
