-- docs/adr/0099: every instance caches the managed tokens it verified, and drops one when the database says it
-- changed. Any change of a row but its last use (a revocation, new scopes or environments, an expiry, limits,
-- a deletion, a TRUNCATE), by the CLI, a migration or an operator's own SQL, notifies the token's id on
-- cas_api_token_changed; PostgreSQL delivers it when the change commits. touch() writes only last_used_at, so
-- the once-a-minute use bookkeeping notifies nothing. Creating a trigger takes its lock for an instant and
-- rewrites nothing; the previous release's writes notify too, which nothing of it listens to.
CREATE FUNCTION "api_tokens_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('cas_api_token_changed', OLD.id);
    RETURN NULL;
END;
$$;

CREATE TRIGGER "api_tokens_changed"
    AFTER UPDATE ON "api_tokens"
    FOR EACH ROW
    WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
    EXECUTE FUNCTION "api_tokens_notify_change"();

CREATE TRIGGER "api_tokens_deleted"
    AFTER DELETE ON "api_tokens"
    FOR EACH ROW
    EXECUTE FUNCTION "api_tokens_notify_change"();

-- TRUNCATE has no rows: an empty payload, which the instances read as "any token" and drop them all.
CREATE FUNCTION "api_tokens_notify_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('cas_api_token_changed', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER "api_tokens_truncated"
    AFTER TRUNCATE ON "api_tokens"
    FOR EACH STATEMENT
    EXECUTE FUNCTION "api_tokens_notify_truncate"();
