-- A webhook endpoint receives what the token that created or last repointed it could read
-- (docs/adr/0002-events-respect-read-scopes.md): its read scopes are recorded with it. Endpoints registered
-- before this release received every record, and keep doing so (the default); re-point or re-create one to
-- narrow it. Expand-safe: a constant default adds the column without a rewrite, and the previous release,
-- which does not name it, registers endpoints that receive what they always did.
ALTER TABLE "webhook_endpoints" ADD COLUMN "read_scopes" TEXT[] NOT NULL DEFAULT '{customers:read,accounts:read}';
