-- A search by social security number is its own operation, with its own scope (`customers:ssn_search`), no longer a
-- read of `customers:read` (docs/adr/0001-scopes-by-duty.md). A managed token that held `customers:read` keeps
-- every power it had, so no integration breaks on upgrade; narrowing it is the operator's choice (`npm run token --
-- create` a token without `customers:ssn_search`, then revoke this one). Revoked and expired tokens are granted it
-- too: they are refused whatever their scopes, and their rows keep telling what they could do.
UPDATE "api_tokens"
SET "scopes" = "scopes" || ARRAY['customers:ssn_search']
WHERE 'customers:read' = ANY ("scopes") AND NOT ('customers:ssn_search' = ANY ("scopes"));
