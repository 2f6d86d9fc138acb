-- Scopes by duty (docs/adr/0001-scopes-by-duty.md): money movement (`transactions:write`) and account
-- controls (`accounts:controls`, flags and overdraft limits) left `accounts:write`. A managed token that held
-- `accounts:write` keeps every power it had, so no integration breaks on upgrade; narrowing it is the
-- operator's choice (`npm run token -- create` a narrower token, then revoke this one).
UPDATE "api_tokens"
SET "scopes" = "scopes"
    || CASE WHEN 'transactions:write' = ANY ("scopes") THEN ARRAY[]::TEXT[] ELSE ARRAY['transactions:write'] END
    || CASE WHEN 'accounts:controls' = ANY ("scopes") THEN ARRAY[]::TEXT[] ELSE ARRAY['accounts:controls'] END
WHERE 'accounts:write' = ANY ("scopes");
